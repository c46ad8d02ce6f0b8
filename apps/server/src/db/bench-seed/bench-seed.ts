import { isDeepStrictEqual } from 'node:util';
import { and, eq, isNull } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { checkDefinition } from '@registry/shared/forms/check';
import { EMPTY_DEFINITION, type FormDefinition } from '@registry/shared/forms/definition';
import { diffDefinitions } from '@registry/shared/forms/diff';
import { validateRecord } from '@registry/shared/forms/record';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import { blindIndex, decryptPhi, encryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import { hashPassword } from '../../lib/password';
import { createDb, type Db } from '../client';
import {
  centers,
  formDrafts,
  formVersions,
  organisations,
  projectMembers,
  projects,
  roles,
  tenants,
  users,
} from '../schema';
import { BENCH_DEFINITION } from './bench-definition';
import {
  BENCH_CENTERS,
  benchPerson,
  benchRecords,
  createRandom,
  identityNumber,
  isoDay,
  type Random,
} from './bench-data';

/**
 * `npm run seed:bench`: the benchmark data set of quality.md — a bench tenant whose project has five centers, an owner,
 * a data-entry user per center and a monitor, a published 40-field CRF, and N synthetic patients with their CRF
 * records, bulk loaded with COPY in one transaction (all or nothing), secondary indexes rebuilt and the tables
 * vacuumed and analysed at the end.
 *
 * Bump BENCH_SEED_VERSION whenever what it writes changes: `npm run bench` re-seeds its databases when it differs.
 */
export const BENCH_SEED_VERSION = 2;
export const BENCH_TENANT_CODE = 'bench';
export const BENCH_PROJECT_CODE = 'BENCH-HF';
/** The password of every bench account (bench data only, never a real installation's). */
export const BENCH_PASSWORD = 'Bench@2026';
export const BENCH_USERNAMES = {
  owner: 'bench_owner',
  monitor: 'bench_monitor',
  entry: (centerCode: string) => `bench_entry_${centerCode.toLowerCase()}`,
} as const;

export type BenchProject = {
  tenantId: string;
  projectId: string;
  versionId: string;
  ownerId: string;
  monitorId: string;
  centers: { id: string; code: string; entryUserId: string }[];
};

type Log = (line: string) => void;

async function roleId(db: Db, code: string): Promise<string> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.code, code), isNull(roles.tenantId), isNull(roles.projectId)))
    .limit(1);
  if (!row) throw new Error(`内置角色 ${code} 不存在（请先运行迁移和参考数据初始化）`);
  return row.id;
}

/** The bench tenant, project, centers, accounts and published definition: found, or created once. */
export async function ensureBenchProject(db: Db): Promise<BenchProject> {
  const found = await findBenchProject(db);
  if (found) return found;
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const ownerRole = await roleId(db, BUILT_IN_ROLES.projectOwner.code);
  const entryRole = await roleId(db, BUILT_IN_ROLES.dataEntry.code);
  const monitorRole = await roleId(db, BUILT_IN_ROLES.monitor.code);
  await db.transaction(async (tx) => {
    const [tenant] = await tx
      .insert(tenants)
      .values({ code: BENCH_TENANT_CODE, name: '基准测试医院集团', type: 'HOSPITAL' })
      .returning();
    if (!tenant) throw new Error('bench tenant not created');
    const orgs = await tx
      .insert(organisations)
      .values(BENCH_CENTERS.map((c) => ({ tenantId: tenant.id, name: c.name })))
      .returning({ id: organisations.id });
    const firstOrg = orgs[0];
    if (!firstOrg) throw new Error('bench organisations not created');
    const account = (username: string, name: string, organisationId: string) => ({
      tenantId: tenant.id,
      organisationId,
      username,
      name,
      passwordHash,
      tenantRoleCode: BUILT_IN_ROLES.tenantMember.code,
    });
    const [owner, monitor, ...entries] = await tx
      .insert(users)
      .values([
        {
          ...account(BENCH_USERNAMES.owner, '基准项目负责人', firstOrg.id),
          tenantRoleCode: BUILT_IN_ROLES.tenantAdmin.code,
        },
        account(BENCH_USERNAMES.monitor, '基准监查员', firstOrg.id),
        ...BENCH_CENTERS.map((c, i) =>
          account(BENCH_USERNAMES.entry(c.code), `${c.city}录入员`, orgs[i]?.id ?? firstOrg.id),
        ),
      ])
      .returning({ id: users.id });
    if (!owner || !monitor || entries.length !== BENCH_CENTERS.length) throw new Error('bench users not created');
    const [project] = await tx
      .insert(projects)
      .values({
        tenantId: tenant.id,
        code: BENCH_PROJECT_CODE,
        name: '心力衰竭多中心注册登记（基准数据）',
        diseaseArea: '心力衰竭',
        description: '由 npm run seed:bench 生成的合成数据，用于性能基准测试',
        status: 'active',
        ownerId: owner.id,
      })
      .returning();
    if (!project) throw new Error('bench project not created');
    const centerRows = await tx
      .insert(centers)
      .values(
        BENCH_CENTERS.map((c, i) => ({
          tenantId: tenant.id,
          projectId: project.id,
          organisationId: orgs[i]?.id ?? firstOrg.id,
          code: c.code,
          name: c.name,
          isDefault: i === 0,
          leadUserId: i === 0 ? owner.id : null,
        })),
      )
      .returning({ id: centers.id });
    await tx.insert(projectMembers).values([
      { tenantId: tenant.id, projectId: project.id, userId: owner.id, roleId: ownerRole },
      { tenantId: tenant.id, projectId: project.id, userId: monitor.id, roleId: monitorRole },
      ...entries.map((e, i) => ({
        tenantId: tenant.id,
        projectId: project.id,
        userId: e.id,
        roleId: entryRole,
        centerId: centerRows[i]?.id ?? null,
      })),
    ]);
    const problems = checkDefinition(BENCH_DEFINITION);
    if (problems.length > 0)
      throw new Error(`基准表单定义有误：${problems.map((p) => `${p.path} ${p.message}`).join('；')}`);
    await tx.insert(formDrafts).values({
      tenantId: tenant.id,
      projectId: project.id,
      definition: BENCH_DEFINITION,
      revision: 1,
      updatedBy: owner.id,
    });
    await tx.insert(formVersions).values({
      tenantId: tenant.id,
      projectId: project.id,
      versionNo: 1,
      definition: BENCH_DEFINITION,
      changes: diffDefinitions(EMPTY_DEFINITION, BENCH_DEFINITION),
      note: '基准数据的表单版本',
      publishedBy: owner.id,
    });
  });
  const created = await findBenchProject(db);
  if (!created) throw new Error('bench project not found after creation');
  return created;
}

export async function findBenchProject(db: Db): Promise<BenchProject | undefined> {
  const [project] = await db
    .select({ id: projects.id, tenantId: projects.tenantId, ownerId: projects.ownerId })
    .from(projects)
    .innerJoin(tenants, eq(tenants.id, projects.tenantId))
    .where(and(eq(tenants.code, BENCH_TENANT_CODE), eq(projects.code, BENCH_PROJECT_CODE)))
    .limit(1);
  if (!project) return undefined;
  const [version] = await db
    .select({ id: formVersions.id })
    .from(formVersions)
    .where(and(eq(formVersions.projectId, project.id), eq(formVersions.versionNo, 1)))
    .limit(1);
  const centerRows = await db
    .select({ id: centers.id, code: centers.code })
    .from(centers)
    .where(eq(centers.projectId, project.id));
  const accounts = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.tenantId, project.tenantId));
  const idOf = (username: string) => accounts.find((a) => a.username === username)?.id;
  const monitorId = idOf(BENCH_USERNAMES.monitor);
  if (!version || !monitorId) return undefined;
  return {
    tenantId: project.tenantId,
    projectId: project.id,
    versionId: version.id,
    ownerId: project.ownerId,
    monitorId,
    centers: BENCH_CENTERS.map((c) => {
      const row = centerRows.find((r) => r.code === c.code);
      const entryUserId = idOf(BENCH_USERNAMES.entry(c.code));
      if (!row || !entryUserId) throw new Error(`bench center ${c.code} incomplete`);
      return { id: row.id, code: c.code, entryUserId };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// COPY text format

/**
 * Time-ordered ids (UUID version 7, RFC 9562) in load order: a random v4 id lands anywhere in the primary key, and
 * with millions of rows the key's pages no longer fit in memory and the load slows to the disk's pace; ordered ids
 * fill the key's right edge. Unique by construction: every id takes the next millisecond after the previous one.
 */
function createIdSource(startMs: number, rnd: Random): () => string {
  let ms = startMs;
  const hex = (n: number, width: number) => Math.floor(n).toString(16).padStart(width, '0');
  return () => {
    ms += 1;
    const t = hex(ms, 12);
    return (
      `${t.slice(0, 8)}-${t.slice(8, 12)}-7${hex(rnd() * 0x1000, 3)}-` +
      `${hex(0x8000 + rnd() * 0x4000, 4)}-${hex(rnd() * 0x1000000, 6)}${hex(rnd() * 0x1000000, 6)}`
    );
  };
}

const NULL = '\\N';
function text(value: string | null | undefined): string {
  if (value === null || value === undefined) return NULL;
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value;
}
const line = (values: (string | number | null | undefined)[]) =>
  `${values.map((v) => (typeof v === 'number' ? String(v) : text(v))).join('\t')}\n`;

const PATIENT_COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'center_id',
  'seq',
  'patient_no',
  'name',
  'gender',
  'birth_date',
  'hospital_no',
  'id_number_enc',
  'id_number_bi',
  'phone_enc',
  'phone_bi',
  'enrol_date',
  'status',
  'row_version',
  'created_by',
  'created_at',
  'updated_by',
  'updated_at',
];
const RECORD_COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'patient_id',
  'form_key',
  'instance',
  'version_id',
  'data',
  'status',
  'row_version',
  'created_by',
  'created_at',
  'updated_by',
  'updated_at',
  'submitted_by',
  'submitted_at',
  'verified_by',
  'verified_at',
];

/** Streams `chunks()` into `COPY table (columns) FROM STDIN`, yielding to the event loop between chunks. */
async function copyInto(client: pg.PoolClient, table: string, columns: string[], chunks: Iterable<string>) {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  for (const chunk of chunks) {
    if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', resolve));
    else await new Promise<void>((resolve) => setImmediate(resolve));
  }
  stream.end();
  await done;
}

/** Secondary indexes of the tables we fill (not those behind a constraint): dropped for the load, rebuilt after. */
async function secondaryIndexes(client: pg.PoolClient, tables: string[]) {
  const { rows } = await client.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as def
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema() and t.relname = any($1)
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
      order by t.relname, i.relname`,
    [tables],
  );
  return rows;
}

export type BenchSeedOptions = {
  patients: number;
  /** PRNG seed (default 20261124): the same seed on an empty project gives the same people. */
  seed?: number;
  /** Patients per COPY batch (default 10,000). */
  batchSize?: number;
  /** `YYYY-MM-DD`: no date in the data lies after it (default: today in Asia/Shanghai). */
  today?: string;
  /** Enrolments run from this date to 30 days before `today` (default 2016-01-01). */
  enrolFrom?: string;
  /** Records validated by the engine per batch, as a check of the generator (default 20). */
  samplesPerBatch?: number;
  log?: Log;
};

export type BenchSeedReport = {
  version: number;
  project: BenchProject;
  patients: number;
  records: number;
  /** The project's patient sequence numbers this run used (first..last). */
  firstSeq: number;
  lastSeq: number;
  seconds: { setup: number; load: number; indexes: number; vacuum: number; total: number };
  /** Records checked by validateRecord during the load. */
  sampled: number;
};

export function shanghaiToday(now = new Date()): string {
  return isoDay(now.getTime() + 8 * 3_600_000);
}

function formsByKey(): Map<string, FormDefinition> {
  const map = new Map<string, FormDefinition>();
  for (const category of BENCH_DEFINITION.categories) for (const form of category.forms) map.set(form.key, form);
  return map;
}

/** Checks one generated record the way the server would: valid for its status, stored exactly as the engine stores it. */
export function checkBenchRecord(
  form: FormDefinition,
  record: { data: Record<string, unknown>; status: string },
  today: string,
): string | null {
  const verdict = validateRecord(form, record.data, {
    mode: record.status === 'draft' ? 'draft' : 'submit',
    today,
    missingCodes: BENCH_DEFINITION.missingCodes,
  });
  if (!verdict.valid)
    return `${form.key}: ${verdict.issues
      .filter((i) => i.level === 'hard')
      .map((i) => `${i.path} ${i.message}`)
      .join('；')}`;
  if (!isDeepStrictEqual(verdict.data, record.data)) return `${form.key}: 存储的数据与引擎计算结果不一致`;
  return null;
}

/**
 * Adds `patients` synthetic patients (with their CRF records) to the bench project, creating the project first when
 * missing. Sequence numbers continue after the project's highest (`patients.seq`), as `POST patient-info` would, under
 * the same advisory lock. One transaction: on any error nothing is written.
 */
export async function seedBench(pool: pg.Pool, keys: PhiKeys, options: BenchSeedOptions): Promise<BenchSeedReport> {
  const log: Log = options.log ?? (() => undefined);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const db = createDb(pool);
  const project = await ensureBenchProject(db);
  const setupDone = elapsed();
  const today = options.today ?? shanghaiToday();
  const enrolTo = isoDay(Date.parse(`${today}T00:00:00Z`) - 30 * 86_400_000);
  const window = { from: options.enrolFrom ?? '2016-01-01', to: enrolTo };
  const batchSize = Math.max(1, options.batchSize ?? 10_000);
  const samplesPerBatch = options.samplesPerBatch ?? 20;
  const rnd: Random = createRandom(options.seed ?? 20261124);
  const forms = formsByKey();
  const total = options.patients;
  // A separate stream of randomness for the ids, so the people stay those of the seed.
  const nextId = createIdSource(Date.now(), createRandom((options.seed ?? 20261124) ^ 0x5eed));

  const client = await pool.connect();
  let loadDone: number;
  let indexesDone: number;
  let records = 0;
  let sampled = 0;
  let firstSeq = 0;
  try {
    await client.query('BEGIN');
    const { rows: superuser } = await client.query<{ s: boolean }>(
      'select usesuper as s from pg_user where usename = current_user',
    );
    // Foreign keys are right by construction; skipping their per-row triggers makes COPY several times faster.
    if (superuser[0]?.s) await client.query('SET LOCAL session_replication_role = replica');
    await client.query("SET LOCAL maintenance_work_mem = '1GB'");
    await client.query('SET LOCAL synchronous_commit = off');
    // The lock of nextPatientSeq: a patient added meanwhile waits, and numbers continue without a gap.
    await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`patients:${project.projectId}`]);
    const max = await client.query<{ max: number }>(
      'select coalesce(max(seq), 0)::int as max from patients where project_id = $1',
      [project.projectId],
    );
    firstSeq = (max.rows[0]?.max ?? 0) + 1;
    const taken = new Set(
      (
        await client.query<{ bi: string }>(
          'select id_number_bi as bi from patients where project_id = $1 and deleted_at is null and id_number_bi is not null',
          [project.projectId],
        )
      ).rows.map((r) => r.bi),
    );

    const indexes = await secondaryIndexes(client, ['patients', 'form_records']);
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
    log(`已暂时删除 ${indexes.length} 个二级索引，开始导入 ${total.toLocaleString('en-US')} 名患者`);

    const { tenantId, projectId, versionId, monitorId } = project;
    /** One batch's COPY text, generated in slices that yield to the event loop (the previous batch streams meanwhile). */
    const generateBatch = async (start: number) => {
      const end = Math.min(total, start + batchSize);
      const patientText: string[] = [];
      const recordLines: string[] = [];
      let pending: string[] = [];
      const samples = new Set<number>();
      while (samples.size < Math.min(samplesPerBatch, end - start))
        samples.add(start + Math.floor(rnd() * (end - start)));
      const checkPatient = start; // one patient per batch: its identity number decrypts and matches its blind index

      {
        let chunk = '';
        for (let position = start; position < end; position++) {
          const seq = firstSeq + position;
          const person = benchPerson(rnd, position, total, window);
          const center = project.centers[person.centerIndex] ?? project.centers[0];
          if (!center) throw new Error('bench project has no center');
          let idNumber = identityNumber(person, rnd);
          let bi = blindIndex(keys, idNumber);
          while (taken.has(bi)) {
            idNumber = identityNumber(person, rnd);
            bi = blindIndex(keys, idNumber);
          }
          taken.add(bi);
          const createdMs = Date.parse(`${person.enrolDate}T01:00:00Z`) + Math.floor(rnd() * 8 * 3_600_000);
          const createdAt = new Date(createdMs).toISOString();
          const id = nextId();
          const idNumberEnc = encryptPhi(keys, idNumber);
          if (
            position === checkPatient &&
            (decryptPhi(keys, idNumberEnc) !== idNumber || blindIndex(keys, decryptPhi(keys, idNumberEnc)) !== bi)
          )
            throw new Error('身份证号加密校验失败');
          chunk += line([
            id,
            tenantId,
            projectId,
            center.id,
            seq,
            `${center.code}-${String(seq).padStart(4, '0')}`,
            person.name,
            person.gender,
            person.birthDate,
            `ZY${person.enrolDate.slice(0, 4)}${String(seq).padStart(7, '0')}`,
            idNumberEnc,
            bi,
            encryptPhi(keys, person.phone),
            blindIndex(keys, person.phone),
            person.enrolDate,
            person.status,
            1,
            center.entryUserId,
            createdAt,
            center.entryUserId,
            createdAt,
          ]);
          const patientRecords = benchRecords(rnd, person, today);
          for (const r of patientRecords) {
            if (samples.has(position)) {
              const form = forms.get(r.formKey);
              const problem = form ? checkBenchRecord(form, r, today) : `未知表单 ${r.formKey}`;
              if (problem) throw new Error(`生成的表单数据未通过校验（患者序号 ${seq}）：${problem}`);
              sampled++;
            }
            const at = new Date(Date.parse(`${r.date}T02:00:00Z`) + Math.floor(rnd() * 6 * 3_600_000)).toISOString();
            const submitted = r.status !== 'draft';
            pending.push(
              line([
                nextId(),
                tenantId,
                projectId,
                id,
                r.formKey,
                r.instance,
                versionId,
                JSON.stringify(r.data),
                r.status,
                1,
                center.entryUserId,
                at,
                center.entryUserId,
                at,
                submitted ? center.entryUserId : null,
                submitted ? at : null,
                r.status === 'verified' ? monitorId : null,
                r.status === 'verified' ? at : null,
              ]),
            );
          }
          if (pending.length >= 2000) {
            recordLines.push(pending.join(''));
            pending = [];
          }
          if ((position - start) % 500 === 499) {
            patientText.push(chunk);
            chunk = '';
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        }
        if (chunk) patientText.push(chunk);
        if (pending.length > 0) recordLines.push(pending.join(''));
      }
      return { end, patientText, recordLines };
    };

    // Two cores: Node generates batch n + 1 (encryption, JSON) while PostgreSQL ingests batch n.
    let upcoming: ReturnType<typeof generateBatch> | undefined = total > 0 ? generateBatch(0) : undefined;
    for (let start = 0; upcoming; start += batchSize) {
      const { end, patientText, recordLines } = await upcoming;
      const copied = (async () => {
        await copyInto(client, 'patients', PATIENT_COLUMNS, patientText);
        await copyInto(client, 'form_records', RECORD_COLUMNS, recordLines);
      })();
      upcoming = end < total ? generateBatch(start + batchSize) : undefined;
      // A failed generation must not leave the COPY unawaited (and vice versa).
      await Promise.all([copied, upcoming?.catch(() => undefined)]);
      records += recordLines.reduce((n, chunk) => n + chunk.split('\n').length - 1, 0);
      const t = elapsed() - setupDone;
      log(
        `患者 ${end.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}（${Math.round((end / total) * 100)}%），` +
          `表单记录 ${records.toLocaleString('en-US')}，${t.toFixed(1)} 秒，${Math.round(end / t).toLocaleString('en-US')} 人/秒`,
      );
    }
    loadDone = elapsed();
    for (const index of indexes) {
      const t0 = performance.now();
      await client.query(index.def);
      log(`重建索引 ${index.name}：${((performance.now() - t0) / 1000).toFixed(1)} 秒`);
    }
    indexesDone = elapsed();
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  // After the commit: VACUUM sets the visibility map (index-only scans), ANALYZE the planner's statistics.
  await pool.query('VACUUM (ANALYZE) patients, form_records');
  const vacuumDone = elapsed();
  log(`VACUUM ANALYZE：${(vacuumDone - indexesDone).toFixed(1)} 秒`);
  return {
    version: BENCH_SEED_VERSION,
    project,
    patients: total,
    records,
    firstSeq,
    lastSeq: firstSeq + total - 1,
    seconds: {
      setup: round1(setupDone),
      load: round1(loadDone - setupDone),
      indexes: round1(indexesDone - loadDone),
      vacuum: round1(vacuumDone - indexesDone),
      total: round1(vacuumDone),
    },
    sampled,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
