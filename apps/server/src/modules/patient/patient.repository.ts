import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { centers, patients } from '../../db/schema';
import { escapeLike } from '../project/project-manage.repository';
import { centerCondition, type ProjectScope } from '../project/project-scope';

/**
 * THE patient scope: tenant, the top-level project, the sub-project's own cohort when the current project is a
 * sub-project (the parent sees all), the center rule, and live (not deleted) rows only.
 */
export function patientScope(scope: ProjectScope): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(patients.tenantId, scope.tenantId),
    eq(patients.projectId, scope.rootProjectId),
    scope.projectId !== scope.rootProjectId ? eq(patients.subProjectId, scope.projectId) : undefined,
    centerCondition(scope, patients.centerId),
    isNull(patients.deletedAt),
  ];
  const where = and(...conditions);
  if (!where) throw new Error('patient scope is empty');
  return where;
}

const columns = {
  id: patients.id,
  patientNo: patients.patientNo,
  name: patients.name,
  gender: patients.gender,
  birthDate: patients.birthDate,
  hospitalNo: patients.hospitalNo,
  idNumberEnc: patients.idNumberEnc,
  phoneEnc: patients.phoneEnc,
  centerId: patients.centerId,
  centerCode: centers.code,
  centerName: centers.name,
  subProjectId: patients.subProjectId,
  enrolDate: patients.enrolDate,
  status: patients.status,
  rowVersion: patients.rowVersion,
  createdAt: patients.createdAt,
  updatedAt: patients.updatedAt,
};

export type PatientFilter = {
  /** Patient number or hospital number; the name too when `nameSearch`. */
  keyword?: string;
  nameSearch: boolean;
  hospitalNo?: string;
  idNumberBi?: string;
  centerId?: string;
  status?: (typeof patients.status.enumValues)[number];
  enrolDateFrom?: string;
  enrolDateTo?: string;
};

const SORT_COLUMNS = {
  patientNo: patients.seq,
  enrolDate: patients.enrolDate,
  createdAt: patients.createdAt,
  updatedAt: patients.updatedAt,
  status: patients.status,
  hospitalNo: patients.hospitalNo,
} as const;
export type PatientSortField = keyof typeof SORT_COLUMNS;

function filterConditions(scope: ProjectScope, f: PatientFilter): SQL[] {
  const conditions: SQL[] = [patientScope(scope)];
  if (f.keyword) {
    const p = escapeLike(f.keyword);
    const any = or(
      ilike(patients.patientNo, p),
      ilike(patients.hospitalNo, p),
      f.nameSearch ? ilike(patients.name, p) : undefined,
    );
    if (any) conditions.push(any);
  }
  if (f.hospitalNo) conditions.push(eq(patients.hospitalNo, f.hospitalNo));
  if (f.idNumberBi) conditions.push(eq(patients.idNumberBi, f.idNumberBi));
  if (f.centerId) conditions.push(eq(patients.centerId, f.centerId));
  if (f.status) conditions.push(eq(patients.status, f.status));
  if (f.enrolDateFrom) conditions.push(gte(patients.enrolDate, f.enrolDateFrom));
  if (f.enrolDateTo) conditions.push(lte(patients.enrolDate, f.enrolDateTo));
  return conditions;
}

export async function pagePatients(
  db: Executor,
  scope: ProjectScope,
  filter: PatientFilter,
  paging: { current: number; size: number; sortField?: PatientSortField; sortOrder?: 'asc' | 'desc' },
) {
  const where = and(...filterConditions(scope, filter));
  const [total] = await db.select({ n: count() }).from(patients).where(where);
  const column = SORT_COLUMNS[paging.sortField ?? 'createdAt'];
  const dir = paging.sortOrder === 'asc' ? asc : desc;
  const records = await db
    .select(columns)
    .from(patients)
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .where(where)
    .orderBy(sql`${dir(column)} nulls last`, dir(patients.seq))
    .limit(paging.size)
    .offset((paging.current - 1) * paging.size);
  return { records, total: total?.n ?? 0 };
}

export type PatientRow = Awaited<ReturnType<typeof pagePatients>>['records'][number];

export async function findPatient(db: Executor, scope: ProjectScope, id: string): Promise<PatientRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(patients)
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .where(and(patientScope(scope), eq(patients.id, id)))
    .limit(1);
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
