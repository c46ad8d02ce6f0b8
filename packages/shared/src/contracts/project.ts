import { z } from 'zod';

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
