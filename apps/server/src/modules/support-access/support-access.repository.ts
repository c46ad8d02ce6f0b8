import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { supportAccessGrants, users } from '../../db/schema';

const granter = alias(users, 'granter');
const revoker = alias(users, 'revoker');

export type SupportGrantRow = {
  id: string;
  grantedByName: string;
  grantedAt: Date;
  expiresAt: Date;
  reason: string | null;
  revokedAt: Date | null;
  revokedByName: string | null;
};

/** The tenant's grants, newest first (at most `limit`). */
export async function listGrants(db: Executor, tenantId: string, limit: number): Promise<SupportGrantRow[]> {
  return db
    .select({
      id: supportAccessGrants.id,
      grantedByName: granter.name,
      grantedAt: supportAccessGrants.grantedAt,
      expiresAt: supportAccessGrants.expiresAt,
      reason: supportAccessGrants.reason,
      revokedAt: supportAccessGrants.revokedAt,
      revokedByName: revoker.name,
    })
    .from(supportAccessGrants)
    .innerJoin(granter, eq(granter.id, supportAccessGrants.grantedBy))
    .leftJoin(revoker, eq(revoker.id, supportAccessGrants.revokedBy))
    .where(eq(supportAccessGrants.tenantId, tenantId))
    .orderBy(desc(supportAccessGrants.grantedAt), desc(supportAccessGrants.id))
    .limit(limit);
}

export async function insertGrant(
  db: Executor,
  row: { tenantId: string; grantedBy: string; grantedAt: Date; expiresAt: Date; reason: string | null },
): Promise<{ id: string }> {
  const [created] = await db.insert(supportAccessGrants).values(row).returning({ id: supportAccessGrants.id });
  if (!created) throw new Error('support access grant insert returned no row');
  return created;
}

/** The grant of this tenant, locked for the revocation. */
export async function findGrantForUpdate(db: Executor, tenantId: string, id: string) {
  const [row] = await db
    .select({
      id: supportAccessGrants.id,
      expiresAt: supportAccessGrants.expiresAt,
      revokedAt: supportAccessGrants.revokedAt,
    })
    .from(supportAccessGrants)
    .where(and(eq(supportAccessGrants.tenantId, tenantId), eq(supportAccessGrants.id, id)))
    .for('update')
    .limit(1);
  return row;
}

export async function revokeGrant(db: Executor, id: string, by: string, at: Date): Promise<void> {
  await db
    .update(supportAccessGrants)
    .set({ revokedAt: at, revokedBy: by })
    .where(and(eq(supportAccessGrants.id, id), isNull(supportAccessGrants.revokedAt)));
}
