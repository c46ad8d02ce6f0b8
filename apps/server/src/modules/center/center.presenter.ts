import type { CenterVO } from '@registry/shared/contracts/center';
import type { CenterRow } from './center.repository';

/** A center as the web sees it (whitelisted fields). */
export function presentCenter(row: CenterRow): CenterVO {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    organisationId: row.organisationId,
    organisationName: row.organisationName,
    leadUserId: row.leadUserId,
    leadName: row.leadName,
    status: row.status,
    isDefault: row.isDefault,
    memberCount: row.memberCount,
    createdAt: row.createdAt.toISOString(),
  };
}
