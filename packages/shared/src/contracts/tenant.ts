import { z } from 'zod';
import { TENANT_TYPES } from '../constants';
import { pageRequest } from './envelope';
import { newAccountFields } from './member';
import { TENANT_CODE } from '../rules';

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
    .min(TENANT_CODE.min.min, TENANT_CODE.min.message)
    .max(TENANT_CODE.max.max, TENANT_CODE.max.message)
    .regex(TENANT_CODE.format.pattern, TENANT_CODE.format.message),
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
