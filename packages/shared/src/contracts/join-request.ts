import { z } from 'zod';
import { pageRequest } from './envelope';

export const JOIN_REQUEST_STATUSES = ['pending', 'approved', 'refused'] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];

const id = (message: string) => z.guid(message);

export const joinRequestVO = z.object({
  id: z.string(),
  projectId: z.string(),
  projectCode: z.string(),
  projectName: z.string(),
  userId: z.string(),
  username: z.string(),
  userName: z.string(),
  departmentName: z.string(),
  message: z.string().nullable(),
  status: z.enum(JOIN_REQUEST_STATUSES),
  /** The refusal reason. */
  reason: z.string().nullable(),
  /** The role granted on approval. */
  roleName: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedByName: z.string().nullable(),
});
export type JoinRequestVO = z.infer<typeof joinRequestVO>;

/**
 * `POST web-project/join-request` (`project.list`): asks to join a top-level project of the acting tenant the caller
 * is not a member of. A second pending request for the same project → 409 '已提交加入申请，请等待审核'; already a
 * member → 409 '您已是该项目成员'.
 */
export const joinRequestCreate = z.object({
  projectId: id('请选择项目'),
  message: z.string().trim().max(200, '申请说明不能超过200个字符').nullable().optional(),
});
export type JoinRequestCreate = z.infer<typeof joinRequestCreate>;

/**
 * `POST web-project/join-request/page` (signed in): the requests of the projects the caller owns or holds
 * `permission.manage` in (newest first). Filters: `status`, `projectId`.
 */
export const joinRequestPageRequest = pageRequest.extend({
  status: z.enum(JOIN_REQUEST_STATUSES, '请选择申请状态').optional(),
  projectId: id('请选择项目').optional(),
});
export type JoinRequestPageRequest = z.infer<typeof joinRequestPageRequest>;

/** `GET web-project/join-request/mine` (signed in): the caller's own requests and their state (newest first). */
export const joinRequestMineResponse = z.array(joinRequestVO);

/**
 * `POST web-project/join-request/approve` (owner or `permission.manage` of the request's project): creates the
 * membership with the role (a project role of that project) and the center (null = all centers). A request already
 * decided → 409 '该申请已处理'.
 */
export const joinRequestApprove = z.object({
  id: id('请选择申请'),
  roleId: id('请选择角色'),
  centerId: id('请选择中心').nullable(),
});
export type JoinRequestApprove = z.infer<typeof joinRequestApprove>;

/**
 * `GET web-project/join-request/options?id=` (same access as approve): what the caller may choose when approving that
 * request — the roles of the request's project the caller may grant, and its active centers the caller may assign
 * (`allCenters` false: a center-scoped manager assigns only their own center). Decided → 409 like approve.
 */
export const joinRequestOptionsQuery = z.object({ id: id('请选择申请') });
export const joinRequestOptions = z.object({
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  centers: z.array(z.object({ id: z.string(), code: z.string(), name: z.string() })),
  allCenters: z.boolean(),
});
export type JoinRequestOptions = z.infer<typeof joinRequestOptions>;

/** `POST web-project/join-request/refuse` (same access as approve): no membership is created. */
export const joinRequestRefuse = z.object({
  id: id('请选择申请'),
  reason: z.string().trim().min(1, '请输入拒绝原因').max(200, '拒绝原因不能超过200个字符'),
});
export type JoinRequestRefuse = z.infer<typeof joinRequestRefuse>;
