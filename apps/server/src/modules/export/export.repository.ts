import { and, count, desc, eq, getTableColumns, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { createDb, type Db, type Executor } from '../../db/client';
import { fieldDictOptions, fieldDicts } from '../../db/schema/dictionaries';
import { users } from '../../db/schema/identity';
import { patients } from '../../db/schema/patients';
import { centers, projects } from '../../db/schema/projects';
import { formRecords } from '../../db/schema/records';
import { exportJobs, exportPseudonyms, retrievalQueries } from '../../db/schema/retrieval';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { patientScope } from '../../domain/scope/patient-scope.repository';

export type ExportJobRow = typeof exportJobs.$inferSelect;
export type ExportJobListRow = ExportJobRow & { createdByName: string };

export async function insertExportJob(tx: Executor, values: typeof exportJobs.$inferInsert): Promise<string> {
  const [row] = await tx.insert(exportJobs).values(values).returning({ id: exportJobs.id });
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/** Sets the export's columns when its state is one of `from`; false when it is not (cancelled, finished meanwhile). */
export async function updateExportJob(
  tx: Executor,
  id: string,
  from: readonly string[],
  set: Partial<typeof exportJobs.$inferInsert>,
): Promise<boolean> {
  const rows = await tx
    .update(exportJobs)
    .set(set)
    .where(and(eq(exportJobs.id, id), inArray(exportJobs.state, [...from])))
    .returning({ id: exportJobs.id });
  return rows.length === 1;
}

export async function findExportJobById(db: Executor, id: string): Promise<ExportJobRow | undefined> {
  const [row] = await db.select().from(exportJobs).where(eq(exportJobs.id, id));
  return row;
}

const listColumns = { ...getTableColumns(exportJobs), createdByName: users.name };

/** An export of the scope's project, or undefined (another project's or tenant's id reads as missing). */
export async function findExportJob(
  db: Executor,
  scope: Pick<ProjectScope, 'tenantId' | 'projectId'>,
  id: string,
): Promise<ExportJobListRow | undefined> {
  const [row] = await db
    .select(listColumns)
    .from(exportJobs)
    .innerJoin(users, eq(users.id, exportJobs.createdBy))
    .where(
      and(eq(exportJobs.tenantId, scope.tenantId), eq(exportJobs.projectId, scope.projectId), eq(exportJobs.id, id)),
    );
  return row;
}

/** A page of the scope's project's exports, newest first (only the user's own with `mine`). */
export async function listExportJobs(
  db: Executor,
  scope: Pick<ProjectScope, 'tenantId' | 'projectId' | 'userId'>,
  page: { offset: number; limit: number; mine: boolean },
): Promise<{ rows: ExportJobListRow[]; total: number }> {
  const where = and(
    eq(exportJobs.tenantId, scope.tenantId),
    eq(exportJobs.projectId, scope.projectId),
    page.mine ? eq(exportJobs.createdBy, scope.userId) : undefined,
  );
  const rows = await db
    .select(listColumns)
    .from(exportJobs)
    .innerJoin(users, eq(users.id, exportJobs.createdBy))
    .where(where)
    .orderBy(desc(exportJobs.createdAt), desc(exportJobs.id))
    .limit(page.limit)
    .offset(page.offset);
  const [counted] = await db.select({ total: count() }).from(exportJobs).where(where);
  return { rows, total: counted?.total ?? 0 };
}

/** A live saved query of the scope's project the user may see (their own or a shared one). */
export async function findVisibleQuery(
  db: Executor,
  scope: Pick<ProjectScope, 'tenantId' | 'projectId' | 'userId'>,
  id: string,
) {
  const [row] = await db
    .select({ id: retrievalQueries.id, name: retrievalQueries.name, definition: retrievalQueries.definition })
    .from(retrievalQueries)
    .where(
      and(
        eq(retrievalQueries.tenantId, scope.tenantId),
        eq(retrievalQueries.projectId, scope.projectId),
        eq(retrievalQueries.id, id),
        isNull(retrievalQueries.deletedAt),
        or(eq(retrievalQueries.ownerId, scope.userId), eq(retrievalQueries.shared, true)),
      ),
    );
  return row;
}

/** Completed exports whose file expired before `now` (the expiry job's batch). */
export async function expiredExports(db: Executor, now: Date, limit: number) {
  return db
    .select({ id: exportJobs.id, fileKey: exportJobs.fileKey })
    .from(exportJobs)
    .where(and(eq(exportJobs.state, 'completed'), lt(exportJobs.expiresAt, now)))
    .orderBy(exportJobs.expiresAt)
    .limit(limit);
}

/**
 * The option labels of the tenant's and the built-in lists with these codes (a tenant's list shadows a built-in one of
 * the same code), at most `limit` options in all (a longer list is written as codes).
 */
export async function dictOptionLabels(
  db: Executor,
  tenantId: string,
  codes: readonly string[],
  limit: number,
): Promise<Map<string, Map<string, string>>> {
  const labels = new Map<string, Map<string, string>>();
  if (codes.length === 0) return labels;
  const rows = await db
    .select({
      dict: fieldDicts.code,
      own: sql<boolean>`${fieldDicts.tenantId} is not null`,
      code: fieldDictOptions.code,
      label: fieldDictOptions.label,
    })
    .from(fieldDictOptions)
    .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
    .where(
      and(or(eq(fieldDicts.tenantId, tenantId), isNull(fieldDicts.tenantId)), inArray(fieldDicts.code, [...codes])),
    )
    // built-in first, so that a tenant's own label of the same list and code wins
    .orderBy(sql`${fieldDicts.tenantId} is not null`, fieldDictOptions.sort)
    .limit(limit);
  for (const r of rows) {
    let list = labels.get(r.dict);
    if (!list) labels.set(r.dict, (list = new Map()));
    list.set(r.code, r.label);
  }
  return labels;
}

// ---- the snapshot an export reads ------------------------------------------------------------------------------------

/** A patient as the export's cursors give it; identity columns only in an identified export. */
export type ExportPatientRow = {
  patient_no: string;
  name: string | null;
  gender: string | null;
  birth_date: string | null;
  hospital_no: string | null;
  id_number_enc: string | null;
  phone_enc: string | null;
  center_name: string;
  sub_project_name: string | null;
  enrol_date: string | null;
  status: string;
  death_date: string | null;
  pseudonym: string | null;
  shift_days: number;
};

/** A stored record as the patients cursor gives it: form key, instance, values. */
export type StoredRecord = { k: string; i: number; d: Record<string, unknown> };

export type ExportSnapshot = {
  /** Gives every patient of the cohort without one a pseudonym and a date shift (kept for all later exports). */
  fillPseudonyms(): Promise<void>;
  /** The cohort's patients in this snapshot. */
  count(): Promise<number>;
  /** The cohort's patients in order, each with the live records of these forms (by form key, then instance). */
  patients(formKeys: readonly string[]): AsyncIterable<ExportPatientRow & { records: StoredRecord[] }>;
  /** The live records of one form of the cohort's patients, by patient then instance. */
  records(formKey: string): AsyncIterable<ExportPatientRow & { instance: number; data: Record<string, unknown> }>;
};

const CURSOR_BATCH = 2000;

const subProjects = sql`sub_projects`;

/** The patient columns every cursor reads (every column aliased: a cursor's rows are keyed by PostgreSQL's names). */
function identityColumns(identified: boolean) {
  const hidden = sql<null>`null::text`;
  return {
    patient_no: sql<string>`${patients.patientNo}`.as('patient_no'),
    name: (identified ? sql<string>`${patients.name}` : hidden).as('name'),
    gender: sql<string | null>`${patients.gender}`.as('gender'),
    birth_date: sql<string | null>`${patients.birthDate}::text`.as('birth_date'),
    hospital_no: (identified ? sql<string | null>`${patients.hospitalNo}` : hidden).as('hospital_no'),
    id_number_enc: (identified ? sql<string | null>`${patients.idNumberEnc}` : hidden).as('id_number_enc'),
    phone_enc: (identified ? sql<string | null>`${patients.phoneEnc}` : hidden).as('phone_enc'),
    center_name: sql<string>`${centers.name}`.as('center_name'),
    sub_project_name: sql<string | null>`${subProjects}.name`.as('sub_project_name'),
    enrol_date: sql<string | null>`${patients.enrolDate}::text`.as('enrol_date'),
    status: sql<string>`${patients.status}`.as('status'),
    death_date: sql<string | null>`${patients.deathDate}::text`.as('death_date'),
    pseudonym: sql<string | null>`${exportPseudonyms.pseudonym}`.as('pseudonym'),
    shift_days: sql<number>`coalesce(${exportPseudonyms.shiftDays}, 0)`.as('shift_days'),
  };
}

function selectPatients(db: Db, identified: boolean, extra: Record<string, unknown>) {
  return db
    .select({ ...identityColumns(identified), ...extra } as never)
    .from(patients)
    .innerJoin(centers, eq(centers.id, patients.centerId))
    .leftJoin(sql`${projects} as ${subProjects}`, sql`${subProjects}.id = ${patients.subProjectId}`)
    .leftJoin(exportPseudonyms, eq(exportPseudonyms.patientId, patients.id));
}

/**
 * The patients cursor's query: each patient of `where` in order with the live records of these forms. Exported for
 * the P5 benchmark, whose ceiling runs the same query as `COPY ... TO STDOUT`.
 */
export function patientsQuery(db: Db, where: SQL | undefined, identified: boolean, formKeys: readonly string[]) {
  const keys = sql.param([...formKeys]);
  const records = sql<StoredRecord[]>`(
    select coalesce(jsonb_agg(jsonb_build_object('k', r.form_key, 'i', r.instance, 'd', r.data)
                              order by r.form_key, r.instance), '[]'::jsonb)
      from ${formRecords} r
     where r.tenant_id = ${patients.tenantId} and r.patient_id = ${patients.id}
       and r.form_key = any(${keys}::text[]) and r.deleted_at is null)`.as('records');
  return selectPatients(db, identified, { records }).where(where).orderBy(patients.seq);
}

/**
 * Runs `read` in one REPEATABLE READ transaction on a connection of its own: every count and cursor of an export sees
 * the same snapshot, so the rows written equal the count. The first statement (the pseudonyms' insert, or the count)
 * takes the snapshot. JIT is off: its compile time delays a streamed plan's first row by seconds and buys nothing on
 * a plan that streams. Cursors stream with backpressure (pg-query-stream): at most a batch of rows in memory.
 */
export async function withExportSnapshot<T>(
  pool: pg.Pool,
  scope: ProjectScope,
  predicate: SQL | undefined,
  identified: boolean,
  read: (snapshot: ExportSnapshot) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  const db: Db = createDb(client as unknown as pg.Pool);
  const where = and(patientScope(scope), predicate);
  const stream = async function* <R>(query: { toSQL(): { sql: string; params: unknown[] } }): AsyncGenerator<R> {
    const { sql: text, params } = query.toSQL();
    const cursor = client.query(new QueryStream(text, params, { batchSize: CURSOR_BATCH }));
    try {
      for await (const row of cursor) yield row as R;
    } finally {
      cursor.destroy();
    }
  };
  const snapshot: ExportSnapshot = {
    async fillPseudonyms() {
      await db.execute(sql`
        insert into ${exportPseudonyms} (patient_id, tenant_id, project_id, pseudonym, shift_days)
        select ${patients.id}, ${patients.tenantId}, ${patients.projectId},
               'S' || upper(substr(md5(gen_random_uuid()::text), 1, 16)), floor(random() * 365)::int
          from ${patients}
         where ${where}
           and not exists (select 1 from ${exportPseudonyms} e where e.patient_id = ${patients.id})
        on conflict (patient_id) do nothing`);
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(patients).where(where);
      return row?.n ?? 0;
    },
    patients(formKeys) {
      return stream(patientsQuery(db, where, identified, formKeys));
    },
    records(formKey) {
      return stream(
        selectPatients(db, identified, {
          instance: sql<number>`${formRecords.instance}`.as('instance'),
          data: sql<Record<string, unknown>>`${formRecords.data}`.as('data'),
        })
          .innerJoin(
            formRecords,
            and(
              eq(formRecords.tenantId, patients.tenantId),
              eq(formRecords.patientId, patients.id),
              eq(formRecords.formKey, formKey),
              isNull(formRecords.deletedAt),
            ),
          )
          .where(where)
          .orderBy(patients.seq, formRecords.instance),
      );
    },
  };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await client.query('SET LOCAL jit = off');
    const result = await read(snapshot);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (err) {
    // a connection whose rollback fails (or a cursor still open) is not handed back to the pool
    await client.query('ROLLBACK').then(
      () => client.release(),
      (rollbackError: unknown) => client.release(rollbackError instanceof Error ? rollbackError : true),
    );
    throw err;
  }
}
