import { z } from 'zod';
import { tenantType } from './auth';
import { pageRequest } from './envelope';
import { chosenPasswordField } from './fields';

export const userInfo = z.object({
  avatar: z.string().nullable(),
  id: z.string(),
  username: z.string(),
  userType: z.string(),
  name: z.string(),
  tenantCode: z.string(),
  tenant: z.object({ id: z.string(), tenantType }),
  initPwd: z.boolean(),
  /** The acting tenant's name (a sys administrator switched into a tenant sees that tenant's name). */
  tenantName: z.string(),
  /** The user's home tenant code (differs from `tenantCode` while a sys administrator is switched). */
  homeTenantCode: z.string(),
  /**
   * A switched sys administrator: when the acting tenant's support access ends (ISO time), null without one. Without
   * it the tenant's patient data is masked and read-only.
   */
  supportAccessUntil: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** `PUT sys-user`: the signed-in user's own profile. An id, when sent, must be the caller's own. */
export const updateUserRequest = z.object({
  id: z.string().optional(),
  name: z.string().trim().min(1, '请输入姓名').max(50, '姓名不能超过50个字符').optional(),
  avatar: z.string().max(500, '头像地址过长').nullable().optional(),
});
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

export const changePasswordRequest = z.object({
  password: z.string().max(128).optional(),
  /** The shared password rule (`password-policy.ts`); the server also refuses one containing the username. */
  newPassword: chosenPasswordField(),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

// ---------------------------------------------------------------------------------------------------------------
// the tenant's accounts (`user.manage`: tenant_admin, sys_admin acting in the tenant)
// ---------------------------------------------------------------------------------------------------------------

export const tenantUserVO = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  departmentName: z.string(),
  disabled: z.boolean(),
  initPwd: z.boolean(),
  createdAt: z.string(),
});
export type TenantUserVO = z.infer<typeof tenantUserVO>;

/** `POST sys-user/page` (`user.manage`): the acting tenant's accounts; keyword = name, username or phone contains. */
export const tenantUserPageRequest = pageRequest.extend({
  keyword: z.string().trim().max(100, '关键字不能超过100个字符').optional(),
  disabled: z.boolean().optional(),
});
export type TenantUserPageRequest = z.infer<typeof tenantUserPageRequest>;

/**
 * `POST sys-user/disable` and `POST sys-user/enable` (`user.manage`): an account of the acting tenant. Disabling ends
 * its sessions at once; its sign-in is refused with '账号已停用'. One's own account → 409 '不能停用自己的账号'.
 */
export const userIdRequest = z.object({ userId: z.guid('请选择用户') });
export type UserIdRequest = z.infer<typeof userIdRequest>;
