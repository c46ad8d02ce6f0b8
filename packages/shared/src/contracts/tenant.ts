import { z } from 'zod';
import { TENANT_TYPES } from '../constants';
import { pageRequest } from './envelope';
import { newAccountFields } from './member';

/** sys administrators (home tenant `sys`, `tenant.manage`). Base `sys-tenant`. */
export const tenantVO = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(TENANT_TYPES),
  userCount: z.number().int(),
  projectCount: z.number().int(),
  createdAt: z.string(),
});
export type TenantVO = z.infer<typeof tenantVO>;

/** `GET sys-tenant/page?current=&size=&keyword=`: every tenant (code or name contains keyword), newest first. */
export const tenantPageQuery = pageRequest.extend({
  keyword: z.string().trim().max(100, '关键字不能超过100个字符').optional(),
});
export type TenantPageQuery = z.infer<typeof tenantPageQuery>;

/**
 * `POST sys-tenant`: a HOSPITAL tenant, its organisation (the hospital, named like the tenant) and its first
 * administrator (`tenant_admin`, init_pwd). Code taken → 409 '租户编码已存在'.
 */
export const tenantCreateRequest = z.object({
  code: z
    .string()
    .trim()
    .min(2, '租户编码至少2个字符')
    .max(32, '租户编码不能超过32个字符')
    .regex(/^[a-z][a-z0-9_-]*$/, '租户编码只能包含小写字母、数字、下划线和短横线，且以字母开头'),
  name: z.string().trim().min(1, '请输入医院名称').max(100, '医院名称不能超过100个字符'),
  admin: z.object(newAccountFields),
});
export type TenantCreateRequest = z.infer<typeof tenantCreateRequest>;
/** The administrator's initial password is returned ONCE, here. */
export const tenantCreateResponse = z.object({
  tenant: tenantVO,
  admin: z.object({ id: z.string(), username: z.string(), name: z.string() }),
  initialPassword: z.string(),
});
export type TenantCreateResponse = z.infer<typeof tenantCreateResponse>;
