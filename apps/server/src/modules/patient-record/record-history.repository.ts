import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { recordValueVersions, sdvMarks, users } from '../../db/schema';

export type VersionRowOut = {
  id: number;
  path: string;
  value: unknown;
  reason: string | null;
  sourceType: string;
  sourceRef: unknown;
  recordRowVersion: number;
  actorName: string | null;
  at: Date;
  sdvByName: string | null;
  sdvAt: Date | null;
};

const verifier = alias(users, 'verifier');
const actor = alias(users, 'actor');

/** Versions of a record's data points (one path, or all), newest first, with actor and SDV mark. */
export async function listValueVersions(
  db: Executor,
  filter: { recordId: string; path?: string; sinceRowVersion?: number },
): Promise<VersionRowOut[]> {
  const rows = await db
    .select({
      id: recordValueVersions.id,
      path: recordValueVersions.path,
      // as text: Drizzle would parse a JSON string value a second time ('"1"' → 1)
      value: sql<string | null>`${recordValueVersions.value}::text`,
      reason: recordValueVersions.reason,
      sourceType: recordValueVersions.sourceType,
      sourceRef: recordValueVersions.sourceRef,
      recordRowVersion: recordValueVersions.recordRowVersion,
      actorName: actor.name,
      at: recordValueVersions.at,
      sdvByName: verifier.name,
      sdvAt: sdvMarks.verifiedAt,
    })
    .from(recordValueVersions)
    .leftJoin(actor, eq(actor.id, recordValueVersions.actorId))
    .leftJoin(sdvMarks, eq(sdvMarks.valueVersionId, recordValueVersions.id))
    .leftJoin(verifier, eq(verifier.id, sdvMarks.verifiedBy))
    .where(
      and(
        eq(recordValueVersions.recordId, filter.recordId),
        filter.path !== undefined ? eq(recordValueVersions.path, filter.path) : undefined,
        filter.sinceRowVersion !== undefined
          ? gt(recordValueVersions.recordRowVersion, filter.sinceRowVersion)
          : undefined,
      ),
    )
    .orderBy(desc(recordValueVersions.id));
  return rows.map((r) => ({ ...r, value: r.value === null ? null : (JSON.parse(r.value) as unknown) }));
}

/** The latest version id of each of these paths of a record, and whether it carries an SDV mark already. */
export async function latestVersionsOf(
  db: Executor,
  recordId: string,
  paths: readonly string[],
): Promise<{ path: string; id: number; verified: boolean }[]> {
  if (paths.length === 0) return [];
  return db
    .selectDistinctOn([recordValueVersions.path], {
      path: recordValueVersions.path,
      id: recordValueVersions.id,
      verified: sql<boolean>`exists (select 1 from ${sdvMarks} m where m.value_version_id = ${recordValueVersions.id})`,
    })
    .from(recordValueVersions)
    .where(and(eq(recordValueVersions.recordId, recordId), inArray(recordValueVersions.path, [...paths])))
    .orderBy(recordValueVersions.path, desc(recordValueVersions.id));
}

export async function insertSdvMarks(tx: Executor, rows: (typeof sdvMarks.$inferInsert)[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx.insert(sdvMarks).values(rows).onConflictDoNothing().returning({ id: sdvMarks.id });
  return inserted.length;
}
