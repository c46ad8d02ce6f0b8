import { z } from 'zod';
import { SUPPORT_ACCESS_HOURS } from '../permissions';

/**
 * Support access (base `support-access`, tenant code `support.grant`): the tenant's own administrator lets the system
 * administrators see and change its patient data unmasked for 1–72 hours; revocable; every grant listed.
 */
export const supportAccessGrantVO = z.object({
  id: z.string(),
  grantedByName: z.string(),
  grantedAt: z.string(),
  expiresAt: z.string(),
  reason: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  /** Neither revoked nor expired. */
  active: z.boolean(),
});
export type SupportAccessGrantVO = z.infer<typeof supportAccessGrantVO>;

/** `GET support-access/list`: the tenant's grants, newest first (the latest 100), and when the active ones end. */
export const supportAccessListResponse = z.object({
  activeUntil: z.string().nullable(),
  grants: z.array(supportAccessGrantVO),
});
export type SupportAccessListResponse = z.infer<typeof supportAccessListResponse>;

/** `POST support-access`: a grant of `hours` (whole hours, 1–72) from now. */
export const supportAccessCreateRequest = z.object({
  hours: z
    .number({ error: '请输入授权时长（小时）' })
    .int('授权时长须为整数小时')
    .min(SUPPORT_ACCESS_HOURS.min, `授权时长至少${SUPPORT_ACCESS_HOURS.min}小时`)
    .max(SUPPORT_ACCESS_HOURS.max, `授权时长不能超过${SUPPORT_ACCESS_HOURS.max}小时`),
  reason: z.string().trim().max(200, '授权说明不能超过200个字符').optional(),
});
export type SupportAccessCreateRequest = z.infer<typeof supportAccessCreateRequest>;

/** `POST support-access/revoke`: ends an active grant now. */
export const supportAccessRevokeRequest = z.object({ id: z.string().uuid('授权不存在') });
export type SupportAccessRevokeRequest = z.infer<typeof supportAccessRevokeRequest>;
