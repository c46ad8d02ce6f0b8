import { z } from 'zod';
import { CENTER_CODE } from '../rules';

/**
 * Centers (sub-centers, sites) of the current project; a sub-project uses its parent's centers. Every patient belongs
 * to one center. A member whose membership has a center sees only that center. Base `project-center`.
 */
export const CENTER_STATUSES = ['active', 'closed'] as const;
export type CenterStatus = (typeof CENTER_STATUSES)[number];

const id = (message: string) => z.guid(message);
const codeField = z
  .string()
  .trim()
  .min(1, '请输入中心编码')
  .max(CENTER_CODE.max.max, CENTER_CODE.max.message)
  .regex(CENTER_CODE.format.pattern, CENTER_CODE.format.message);
const nameField = z.string().trim().min(1, '请输入中心名称').max(100, '中心名称不能超过100个字符');

export const centerVO = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  organisationId: z.string(),
  organisationName: z.string(),
  /** The lead: a member of the project (user id), or null. */
  leadUserId: z.string().nullable(),
  leadName: z.string().nullable(),
  status: z.enum(CENTER_STATUSES),
  /** The project's own hospital, created with the project. */
  isDefault: z.boolean(),
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type CenterVO = z.infer<typeof centerVO>;

/** `GET project-center/list` (any member of the current project): the centers, default first. */
export const centerListQuery = z.object({ status: z.enum(CENTER_STATUSES, '请选择中心状态').optional() });
export const centerListResponse = z.array(centerVO);

/**
 * `POST project-center` (`center.manage`, a membership over all centers): 409 '中心编码已存在' when the code is taken in
 * the project. The lead must be a member of the project (else 400 '负责人须为项目成员').
 */
export const centerCreateRequest = z.object({
  code: codeField,
  name: nameField,
  organisationId: id('请选择所属机构'),
  leadUserId: id('请选择负责人').nullable().optional(),
});
export type CenterCreateRequest = z.infer<typeof centerCreateRequest>;

/** `PUT project-center` (`center.manage`; a center-scoped member edits only their own center). */
export const centerUpdateRequest = z.object({
  id: id('请选择中心'),
  code: codeField.optional(),
  name: nameField.optional(),
  organisationId: id('请选择所属机构').optional(),
  leadUserId: id('请选择负责人').nullable().optional(),
});
export type CenterUpdateRequest = z.infer<typeof centerUpdateRequest>;

/**
 * `POST project-center/close` and `POST project-center/reopen` (`center.manage`, all centers): a closed center takes
 * no new patients or members. The default center cannot be closed (409 '默认中心不能关闭').
 */
export const centerIdRequest = z.object({ id: id('请选择中心') });
export type CenterIdRequest = z.infer<typeof centerIdRequest>;
