import { z } from 'zod';
import { tenantType } from './auth';

export const userInfo = z.object({
  avatar: z.string().nullable(),
  id: z.string(),
  username: z.string(),
  userType: z.string(),
  name: z.string(),
  tenantCode: z.string(),
  tenant: z.object({ id: z.string(), tenantType }),
  initPwd: z.boolean(),
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
  newPassword: z
    .string()
    .min(8, '新密码至少8位')
    .max(64, '新密码不能超过64位')
    .regex(/[A-Za-z]/, '新密码须包含字母')
    .regex(/\d/, '新密码须包含数字'),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
