import { z } from 'zod';
import { PROJECT_CODE } from '../rules';

export const PROJECT_STATUSES = ['draft', 'active', 'locked', 'archived'] as const;

export const projectVO = z.object({
  id: z.string(),
  projectCode: z.string(),
  projectName: z.string(),
  /** True when this project is a sub-project (a child cohort) of `parentId`. */
  subProject: z.boolean(),
  parentId: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  diseaseArea: z.string().nullable(),
  description: z.string().nullable(),
  /** The caller's role in the project (its name, in Chinese). */
  roleName: z.string(),
  owned: z.boolean(),
  createdAt: z.string(),
});
export type ProjectVO = z.infer<typeof projectVO>;

/** `POST web-project/list[/{scope}]`: scope is `all` (default), `owned`, `joined`. */
export const PROJECT_LIST_SCOPES = ['all', 'owned', 'joined'] as const;
export const projectListParams = z.object({ scope: z.enum(PROJECT_LIST_SCOPES).optional() });
export const projectListRequest = z
  .object({ keyword: z.string().trim().max(100, '关键字不能超过100个字符').optional() })
  .default({});
export const projectListResponse = z.object({
  departmentName: z.string(),
  hospitalName: z.string(),
  projectVOs: z.array(projectVO),
});
export type ProjectListResponse = z.infer<typeof projectListResponse>;

export const projectChangeQuery = z.object({ projectId: z.string().min(1, '请选择项目').max(64) });

export const currentProject = z.object({
  id: z.string(),
  projectName: z.string(),
  projectCode: z.string(),
  subProject: z.boolean(),
});
export type CurrentProject = z.infer<typeof currentProject>;

export const projectCount = z.object({ total: z.number().int(), owned: z.number().int(), joined: z.number().int() });
export type ProjectCount = z.infer<typeof projectCount>;

// ---------------------------------------------------------------------------------------------------------------
// project management, sub-projects, search and join, organisations, tenant doctors
// ---------------------------------------------------------------------------------------------------------------

/** An id of a row: anything else is refused with the field's message; an unknown or foreign id answers 404. */
export const entityId = (message = '请选择有效的记录') => z.guid(message);

const projectCodeField = z
  .string()
  .trim()
  .min(1, '请输入项目编码')
  .max(PROJECT_CODE.max.max, PROJECT_CODE.max.message)
  .regex(PROJECT_CODE.format.pattern, PROJECT_CODE.format.message);
const projectNameField = z.string().trim().min(1, '请输入项目名称').max(100, '项目名称不能超过100个字符');
const diseaseAreaField = z.string().trim().max(50, '疾病领域不能超过50个字符').nullable().optional();
const descriptionField = z.string().trim().max(1000, '项目描述不能超过1000个字符').nullable().optional();

/**
 * `POST web-project` (tenant `project.create`; with `parentId`: owner of the parent or a member holding
 * `project.manage` there; no grandchildren). The creator becomes project owner; a top-level project gets a default
 * center (the creator's hospital). Response: the new project as the list shows it. 409 when the code is taken in the
 * tenant: '项目编码已存在'.
 */
export const projectCreateRequest = z.object({
  code: projectCodeField,
  name: projectNameField,
  diseaseArea: diseaseAreaField,
  description: descriptionField,
  /** A new project starts as draft (default) or active. */
  status: z.enum(['draft', 'active'], '项目状态只能是草稿或进行中').default('draft'),
  /** Set to create a sub-project (a child cohort) of this top-level project. */
  parentId: entityId('请选择上级项目').nullable().optional(),
});
export type ProjectCreateRequest = z.infer<typeof projectCreateRequest>;

/** `PUT web-project` (owner, or `project.manage` in that project): edit code, name, disease area, description. */
export const projectUpdateRequest = z.object({
  id: entityId('请选择项目'),
  code: projectCodeField.optional(),
  name: projectNameField.optional(),
  diseaseArea: diseaseAreaField,
  description: descriptionField,
});
export type ProjectUpdateRequest = z.infer<typeof projectUpdateRequest>;

/**
 * `POST web-project/status` (owner, or `project.manage` in that project): the lifecycle
 * draft → active → locked → active (unlock); any → archived (archive); archived → active (restore).
 * Another transition: 409 '不允许的状态变更'. Archiving a project archives its sub-projects too.
 */
export const PROJECT_STATUS_TRANSITIONS = {
  draft: ['active', 'archived'],
  active: ['locked', 'archived'],
  locked: ['active', 'archived'],
  archived: ['active'],
} as const satisfies Record<(typeof PROJECT_STATUSES)[number], readonly (typeof PROJECT_STATUSES)[number][]>;
export const projectStatusRequest = z.object({
  id: entityId('请选择项目'),
  status: z.enum(PROJECT_STATUSES, '请选择项目状态'),
});
export type ProjectStatusRequest = z.infer<typeof projectStatusRequest>;

/** `POST web-project/search4join` (`project.list`): projects of the acting tenant the caller is not a member of. */
export const searchForJoinRequest = z.object({
  keyword: z.string().trim().min(1, '请输入项目编码或名称').max(100, '关键字不能超过100个字符'),
});
/** No private details: neither the description nor the members. */
export const joinableProject = z.object({
  id: z.string(),
  projectCode: z.string(),
  projectName: z.string(),
  diseaseArea: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  ownerName: z.string(),
  /** True when the caller already has a pending join request for it. */
  pending: z.boolean(),
});
export type JoinableProject = z.infer<typeof joinableProject>;
export const searchForJoinResponse = z.array(joinableProject);

/**
 * `GET web-project/current-project-tenant-doctors` (signed in, current project required → 404 '请先选择项目'): the
 * acting tenant's active users, for assigning members and tasks.
 */
export const tenantDoctor = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  departmentName: z.string(),
});
export type TenantDoctor = z.infer<typeof tenantDoctor>;
export const tenantDoctorsResponse = z.array(tenantDoctor);
