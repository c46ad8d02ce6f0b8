import type { Executor } from '../../db/client';

/**
 * The hook where a plan's quota limits the projects a tenant may create (personal edition, issue "entitlements"):
 * called inside the creating transaction; throw an AppError (e.g. 409 '个人版项目数量已达上限') to refuse. The default
 * allows everything until plans exist.
 */
export type ProjectQuotaCheck = (
  tx: Executor,
  tenant: { tenantId: string; tenantType: 'SYSTEM' | 'HOSPITAL' | 'PERSONAL' },
) => Promise<void>;

export const unlimitedProjects: ProjectQuotaCheck = async () => {};
