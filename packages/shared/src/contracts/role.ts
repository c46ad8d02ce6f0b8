import { z } from 'zod';
import { PROJECT_PERMISSION_CODES } from '../permissions';
import { ROLE_CODE } from '../rules';

/**
 * Roles of the current project (a sub-project uses its parent's): the built-in project roles (read-only) and the
 * project's custom roles. Base `project-role`; access `permission.manage` for writes, any member for the list.
 * The permission codes a role may hold and their labels: `PROJECT_PERMISSION_CODES`, `PROJECT_PERMISSION_LABELS`.
 */
const id = (message: string) => z.guid(message);

export const roleVO = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  builtIn: z.boolean(),
  permissions: z.array(z.string()),
  /** Members of the project holding it. */
  memberCount: z.number().int(),
});
export type RoleVO = z.infer<typeof roleVO>;

/** `GET project-role/list` (any member of the current project): built-ins first, then custom roles by name. */
export const roleListResponse = z.array(roleVO);

const codeField = z
  .string()
  .trim()
  .min(1, '请输入角色编码')
  .max(ROLE_CODE.max.max, ROLE_CODE.max.message)
  .regex(ROLE_CODE.format.pattern, ROLE_CODE.format.message);
const nameField = z.string().trim().min(1, '请输入角色名称').max(50, '角色名称不能超过50个字符');
const permissionsField = z
  .array(z.enum(PROJECT_PERMISSION_CODES, '包含无效的权限编码'))
  .min(1, '请至少选择一项权限')
  .max(PROJECT_PERMISSION_CODES.length);

/** `POST project-role` (`permission.manage`): 409 '角色编码已存在' when taken in the project or by a built-in role. */
export const roleCreateRequest = z.object({ code: codeField, name: nameField, permissions: permissionsField });
export type RoleCreateRequest = z.infer<typeof roleCreateRequest>;

/** `PUT project-role` (`permission.manage`): a custom role's name and codes; a built-in role → 409 '内置角色不能修改'. */
export const roleUpdateRequest = z.object({
  id: id('请选择角色'),
  name: nameField.optional(),
  permissions: permissionsField.optional(),
});
export type RoleUpdateRequest = z.infer<typeof roleUpdateRequest>;

/**
 * `DELETE project-role?id=` (`permission.manage`): a custom role no member holds. In use → 409
 * '角色正在使用中，无法删除'; built-in → 409 '内置角色不能删除'.
 */
export const roleDeleteQuery = z.object({ id: id('请选择角色') });
