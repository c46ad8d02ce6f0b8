import { SYS_TENANT_CODE } from '@registry/shared/constants';
import type {
  TenantCreateRequest,
  TenantCreateResponse,
  TenantPageQuery,
  TenantVO,
} from '@registry/shared/contracts/tenant';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import { checkAccountFree, createAccount } from '../../domain/users/new-account';
import type { AuthContext } from '../auth/session.service';
import { MANAGE_MESSAGES as M } from '../../domain/messages/project-messages';
import { findTenantRow, insertHospitalTenant, pageTenants, tenantCodeTaken, type TenantRow } from './tenant.repository';

const present = (r: TenantRow): TenantVO => ({
  id: r.id,
  code: r.code,
  name: r.name,
  type: r.type,
  userCount: r.userCount,
  projectCount: r.projectCount,
  createdAt: r.createdAt.toISOString(),
});

export type TenantService = ReturnType<typeof createTenantService>;

/** Tenants, for system administrators only (home tenant `sys` and `tenant.manage`). */
export function createTenantService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  function requireSys(auth: AuthContext) {
    if (auth.homeTenantCode !== SYS_TENANT_CODE) throw new AppError(403, ERROR_MESSAGES.forbidden);
  }

  return {
    async page(auth: AuthContext, q: TenantPageQuery) {
      requireSys(auth);
      const { records, total } = await pageTenants(db, {
        ...(q.keyword ? { keyword: q.keyword } : {}),
        current: q.current,
        size: q.size,
      });
      return { records: records.map(present), total, current: q.current, size: q.size };
    },

    /** A HOSPITAL tenant, its hospital organisation and its first administrator (initial password shown once). */
    async create(auth: AuthContext, input: TenantCreateRequest, ctx: AuditContext): Promise<TenantCreateResponse> {
      requireSys(auth);
      if (await tenantCodeTaken(db, input.code)) throw new AppError(409, M.tenantCodeTaken);
      await checkAccountFree(db, input.admin);
      const now = clock.now();
      const created = await db.transaction(async (tx) => {
        const { tenantId, organisationId } = await insertHospitalTenant(tx, input.code, input.name, now);
        const account = await createAccount(tx, {
          ...input.admin,
          tenantId,
          organisationId,
          tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code,
          at: now,
        });
        // Recorded in the administrator's own chain (the acting tenant) and in the new tenant's.
        const event = {
          action: 'tenant.create',
          entityType: 'tenant',
          entityId: tenantId,
          newValue: {
            code: input.code,
            name: input.name,
            type: 'HOSPITAL',
            adminUserId: account.user.id,
            adminUsername: account.user.username,
          },
        };
        await audit(tx, ctx, event, now);
        await audit(tx, ctx, { ...event, tenantId }, now);
        return { tenantId, account };
      });
      const tenant = await findTenantRow(db, created.tenantId);
      if (!tenant) throw new AppError(404, ERROR_MESSAGES.tenantNotFound);
      return { tenant: present(tenant), admin: created.account.user, initialPassword: created.account.initialPassword };
    },
  };
}
