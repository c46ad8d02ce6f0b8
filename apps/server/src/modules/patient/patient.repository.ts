import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { runPrepared, type Executor } from '../../db/client';
import { centers, patients } from '../../db/schema';
import { centerCondition } from '../../domain/scope/project-scope.repository';
import { patientScope } from '../../domain/scope/patient-scope.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { patientColumns, type PatientRow } from './patient-list.repository';

/**
 * One patient's queries: read, duplicates, center, sequence, insert, update, soft delete; the import's reads. The list
 * query: patient-list.repository.ts (re-exported here).
 */

export {
  KEYSET_SORT_FIELDS,
  LIST_COUNT_CAP,
  pagePatients,
  followupStatusCondition,
  type ListPosition,
  type ListTotal,
  type PatientCrfQuery,
  type PatientFilter,
  type PatientPaging,
  type PatientRow,
  type PatientSortField,
} from './patient-list.repository';

/** The columns of a patient as written. */
export type PatientInsert = typeof patients.$inferInsert;

export async function findPatient(db: Executor, scope: ProjectScope, id: string): Promise<PatientRow | undefined> {
  const [row] = await runPrepared(
    db
      .select(patientColumns)
      .from(patients)
      .innerJoin(centers, eq(centers.id, patients.centerId))
      .where(and(patientScope(scope), eq(patients.id, id)))
      .limit(1),
  );
  return row;
}

/** A live patient of the project holding this blind index or hospital number (other than `exceptId`). */
export async function findDuplicate(
  db: Executor,
  projectId: string,
  by: { idNumberBi?: string | null; hospitalNo?: string | null },
  exceptId?: string,
) {
  const found: { kind: 'idNumber' | 'hospitalNo'; patientNo: string; name: string }[] = [];
  const probe = async (kind: 'idNumber' | 'hospitalNo', condition: SQL) => {
    const [row] = await db
      .select({ patientNo: patients.patientNo, name: patients.name })
      .from(patients)
      .where(
        and(
          eq(patients.projectId, projectId),
          isNull(patients.deletedAt),
          condition,
          exceptId ? ne(patients.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (row) found.push({ kind, ...row });
  };
  if (by.idNumberBi) await probe('idNumber', eq(patients.idNumberBi, by.idNumberBi));
  if (by.hospitalNo) await probe('hospitalNo', eq(patients.hospitalNo, by.hospitalNo));
  return found;
}

/** An open center of the project (`centers.status = 'active'`) within the scope's center rule. */
export async function findOpenCenter(db: Executor, scope: ProjectScope, centerId: string) {
  const [row] = await db
    .select({ id: centers.id, code: centers.code })
    .from(centers)
    .where(
      and(
        eq(centers.tenantId, scope.tenantId),
        eq(centers.projectId, scope.rootProjectId),
        eq(centers.id, centerId),
        eq(centers.status, 'active'),
        centerCondition(scope, centers.id),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The next project sequence number. Serialised per project by a transaction-scoped advisory lock, so concurrent adds
 * never collide; numbers of deleted patients are not reused.
 */
export async function nextPatientSeq(tx: Executor, projectId: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`patients:${projectId}`}, 0))`);
  const [row] = await tx
    .select({ max: sql<number>`coalesce(max(${patients.seq}), 0)::int` })
    .from(patients)
    .where(eq(patients.projectId, projectId));
  return (row?.max ?? 0) + 1;
}

export async function insertPatientRow(tx: Executor, values: typeof patients.$inferInsert) {
  const [row] = await tx.insert(patients).values(values).returning({ id: patients.id });
  if (!row) throw new Error('patient insert returned no row');
  return row;
}

/** `UPDATE ... WHERE row_version = $n`: undefined when the row changed meanwhile (or is gone). */
export async function updatePatientRow(
  tx: Executor,
  scope: ProjectScope,
  id: string,
  rowVersion: number,
  set: Partial<typeof patients.$inferInsert>,
) {
  const [row] = await tx
    .update(patients)
    .set({ ...set, rowVersion: sql`${patients.rowVersion} + 1` })
    .where(and(patientScope(scope), eq(patients.id, id), eq(patients.rowVersion, rowVersion)))
    .returning({ id: patients.id, rowVersion: patients.rowVersion });
  return row;
}

/** Soft-deletes the live patients of the scope among `ids`; answers the ids it deleted. */
export async function softDeletePatients(
  tx: Executor,
  scope: ProjectScope,
  ids: string[],
  set: { deletedAt: Date; deleteReason: string; updatedBy: string; updatedAt: Date },
) {
  return tx
    .update(patients)
    .set({ ...set, rowVersion: sql`${patients.rowVersion} + 1` })
    .where(and(patientScope(scope), inArray(patients.id, ids)))
    .returning({ id: patients.id, patientNo: patients.patientNo });
}

/** The live patients of the scope with one of these patient numbers or hospital numbers (the import's matches). */
export async function findVisiblePatients(
  db: Executor,
  scope: ProjectScope,
  by: { patientNos: readonly string[]; hospitalNos: readonly string[] },
): Promise<PatientRow[]> {
  if (by.patientNos.length === 0 && by.hospitalNos.length === 0) return [];
  const match = or(
    by.patientNos.length > 0 ? inArray(patients.patientNo, [...by.patientNos]) : undefined,
    by.hospitalNos.length > 0 ? inArray(patients.hospitalNo, [...by.hospitalNos]) : undefined,
  );
  return db
    .select(patientColumns)
    .from(patients)
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .where(and(patientScope(scope), match));
}

/**
 * The live patients of the whole project (every center and cohort: duplicates count project-wide) holding one of
 * these hospital numbers or identity-number blind indexes.
 */
export async function findProjectDuplicates(
  db: Executor,
  projectId: string,
  by: { hospitalNos: readonly string[]; idNumberBis: readonly string[] },
) {
  if (by.hospitalNos.length === 0 && by.idNumberBis.length === 0) return [];
  return db
    .select({
      id: patients.id,
      patientNo: patients.patientNo,
      hospitalNo: patients.hospitalNo,
      idNumberBi: patients.idNumberBi,
    })
    .from(patients)
    .where(
      and(
        eq(patients.projectId, projectId),
        isNull(patients.deletedAt),
        or(
          by.hospitalNos.length > 0 ? inArray(patients.hospitalNo, [...by.hospitalNos]) : undefined,
          by.idNumberBis.length > 0 ? inArray(patients.idNumberBi, [...by.idNumberBis]) : undefined,
        ),
      ),
    );
}
