import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { pageConfigs } from '../../db/schema';

/** Whose layout of which page: always the caller's own (tenant and user from the session). */
export type LayoutOwner = { tenantId: string; userId: string; projectId: string | null; pageKey: string };

const ownerCondition = (o: LayoutOwner): SQL | undefined =>
  and(
    eq(pageConfigs.tenantId, o.tenantId),
    eq(pageConfigs.userId, o.userId),
    o.projectId === null ? isNull(pageConfigs.projectId) : eq(pageConfigs.projectId, o.projectId),
    eq(pageConfigs.pageKey, o.pageKey),
  );

export async function findLayout(db: Executor, owner: LayoutOwner) {
  const [row] = await db
    .select({ id: pageConfigs.id, config: pageConfigs.config })
    .from(pageConfigs)
    .where(ownerCondition(owner))
    .limit(1);
  return row;
}

/** Inserts or replaces the owner's layout of the page (one row per user, project and page). */
export async function upsertLayout(tx: Executor, owner: LayoutOwner, config: unknown, at: Date) {
  const [row] = await tx
    .insert(pageConfigs)
    .values({ ...owner, config, updatedAt: at })
    .onConflictDoUpdate({
      target: [pageConfigs.userId, pageConfigs.projectId, pageConfigs.pageKey],
      set: { config, updatedAt: at },
    })
    .returning({ id: pageConfigs.id });
  if (!row) throw new Error('page config upsert returned no row');
  return row;
}

export async function deleteLayout(tx: Executor, owner: LayoutOwner) {
  return tx
    .delete(pageConfigs)
    .where(ownerCondition(owner))
    .returning({ id: pageConfigs.id, config: pageConfigs.config });
}
