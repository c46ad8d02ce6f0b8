import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import { validateRecord } from '@registry/shared/forms/record';
import type { Db, Executor } from '../../db/client';
import { formRecords, patients, users } from '../../db/schema';
import type { AuditContext } from '../../plugins/audit';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { createDefinitionCache, type PublishedVersion } from '../../domain/crf/definition-cache';
import type { RecordRow } from './patient-record.repository';
import { insertSdvMarks, latestVersionsOf } from './record-history.repository';
import { writeRecord } from './record-writer';
import { demoPatientIdentities, findDemoProject } from '../../db/demo-patients';
import { withPatientValues } from './patient-binding';

type Actor = 'entry' | 'entry2' | 'monitor';
type Step = {
  /** `patient_no` of the HF-REG demo patient. */
  patientNo: string;
  formKey: string;
  instance?: number;
  data: Record<string, unknown>;
  status: RecordStatus;
  by: Actor;
  at: string;
  reason?: string;
  /** After the write: mark these data points verified (SDV) and the form verified, by the monitor. */
  verify?: { paths: string[]; at: string };
};

/**
 * The demo records of 心力衰竭注册登记研究 (HF-REG), in the order they were "entered": submitted demographics and
 * vitals, a lab form with its repeating group, a verified echocardiography, an LVEF outside its plausible range (a
 * soft issue and its auto query), a weight corrected with a reason (two versions), a follow-up visit at C02 and the
 * HFpEF sub-project's own form for a patient of its cohort.
 */
const STEPS: Step[] = [
  {
    patientNo: 'C01-0001',
    formKey: 'demographics',
    data: {
      name: '王建国',
      gender: '1',
      birth_date: '1958-03-14',
      ethnicity: '01',
      blood_type: 'A',
      phone: '13801010001',
      address: '北京市西城区月坛南街 12 号',
    },
    status: 'submitted',
    by: 'entry',
    at: '2026-01-08T02:10:00Z',
  },
  {
    patientNo: 'C01-0001',
    formKey: 'vital_signs',
    data: { vs_date: '2026-01-08', height: 172, weight: 72.5, sbp: 138, dbp: 86, heart_rate: 88 },
    status: 'submitted',
    by: 'entry',
    at: '2026-01-08T02:25:00Z',
  },
  {
    patientNo: 'C01-0001',
    formKey: 'medical_history',
    data: {
      smoking: '1',
      smoking_packs: 1,
      smoking_years: 30,
      comorbidities: ['htn', 'af'],
      primary_diagnosis: 'I00-I99',
    },
    status: 'submitted',
    by: 'entry',
    at: '2026-01-08T02:40:00Z',
  },
  {
    patientNo: 'C01-0001',
    formKey: 'echocardiography',
    data: { echo_date: '2026-01-09', lvef: 35, lvedd: 64.5, nyha: '3' },
    status: 'submitted',
    by: 'entry',
    at: '2026-01-09T07:00:00Z',
    verify: { paths: ['echo_date', 'lvef', 'lvedd', 'nyha'], at: '2026-01-20T03:00:00Z' },
  },
  {
    patientNo: 'C01-0001',
    formKey: 'laboratory',
    data: {
      lab_date: '2026-01-08',
      nt_probnp: 3560,
      creatinine: 112,
      other_labs: [
        { lab_item: '血钾', lab_result: '4.6', lab_unit: 'mmol/L' },
        { lab_item: '血钠', lab_result: '136', lab_unit: 'mmol/L' },
        { lab_item: '血红蛋白', lab_result: '128', lab_unit: 'g/L' },
      ],
    },
    status: 'draft',
    by: 'entry',
    at: '2026-01-08T06:30:00Z',
  },
  {
    patientNo: 'C01-0001',
    formKey: 'vital_signs',
    data: { vs_date: '2026-01-08', height: 172, weight: 71.8, sbp: 138, dbp: 86, heart_rate: 88 },
    status: 'submitted',
    by: 'entry',
    at: '2026-01-10T01:15:00Z',
    reason: '护士复测体重，更正录入值',
  },
  {
    patientNo: 'C01-0002',
    formKey: 'demographics',
    data: { name: '李秀英', gender: '2', birth_date: '1962-07-21', ethnicity: '01', blood_type: 'O' },
    status: 'submitted',
    by: 'entry',
    at: '2026-01-15T03:00:00Z',
  },
  {
    patientNo: 'C01-0002',
    formKey: 'echocardiography',
    data: { echo_date: '2026-01-16', lvef: 85, lvedd: 48, nyha: '2' },
    status: 'draft',
    by: 'entry',
    at: '2026-01-16T08:20:00Z',
  },
  {
    patientNo: 'C01-0002',
    formKey: 'vital_signs',
    data: { vs_date: '2026-01-15', height: 158, weight: 61, sbp: 126, dbp: 78 },
    status: 'draft',
    by: 'entry',
    at: '2026-01-15T03:20:00Z',
  },
  {
    patientNo: 'C01-0003',
    formKey: 'hfpef_assessment',
    data: { e_e_ratio: 16.5, lavi: 41.2, h2fpef_score: 7 },
    status: 'draft',
    by: 'entry',
    at: '2026-02-04T02:00:00Z',
  },
  {
    patientNo: 'C02-0006',
    formKey: 'demographics',
    data: { name: '刘淑珍', gender: '2', birth_date: '1960-06-12', ethnicity: '01' },
    status: 'submitted',
    by: 'entry2',
    at: '2026-01-22T02:00:00Z',
  },
  {
    patientNo: 'C02-0006',
    formKey: 'vital_signs',
    data: { vs_date: '2026-01-22', height: 160, weight: 66.3, sbp: 142, dbp: 88, heart_rate: 79 },
    status: 'submitted',
    by: 'entry2',
    at: '2026-01-22T02:15:00Z',
  },
  {
    patientNo: 'C02-0006',
    formKey: 'followup_visit',
    instance: 1,
    data: { fu_date: '2026-02-22', vital_status: '1', readmission: '0', fu_nyha: '2' },
    status: 'submitted',
    by: 'entry2',
    at: '2026-02-22T06:00:00Z',
  },
];

/**
 * Writes the demo records through the record writer (versions, auto queries and audit events as a user would leave
 * them). Idempotent: does nothing once HF-REG has a record, or without its demo patients or published version. The
 * transaction-scoped advisory lock serialises two instances starting at once.
 */
export async function seedDemoRecords(db: Db): Promise<number> {
  const hf = await findDemoProject(db);
  if (!hf) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`form_records:seed:${hf.id}`}, 0))`);
    const [any] = await tx
      .select({ id: formRecords.id })
      .from(formRecords)
      .innerJoin(patients, eq(patients.id, formRecords.patientId))
      .where(eq(patients.projectId, hf.id))
      .limit(1);
    if (any) return 0;
    const people = await tx
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(and(eq(users.tenantId, hf.tenantId), inArray(users.username, ['entry', 'entry2', 'monitor'])));
    const actor = new Map(people.map((u) => [u.username, u.id]));
    const rows = await tx
      .select({
        id: patients.id,
        patientNo: patients.patientNo,
        projectId: patients.projectId,
        sub: patients.subProjectId,
      })
      .from(patients)
      .where(and(eq(patients.projectId, hf.id), isNull(patients.deletedAt)))
      .orderBy(asc(patients.seq));
    const byNo = new Map(rows.map((p) => [p.patientNo, p]));
    const versions = await latestVersions(tx, hf.tenantId, [
      hf.id,
      ...new Set(rows.flatMap((p) => (p.sub ? [p.sub] : []))),
    ]);
    const written = new Map<string, RecordRow>();
    const identities = demoPatientIdentities();
    let n = 0;
    for (const step of STEPS) {
      const patient = byNo.get(step.patientNo);
      const actorId = actor.get(step.by);
      if (!patient || !actorId) continue;
      const version = [patient.sub, patient.projectId]
        .flatMap((id) => (id ? [versions.get(id)] : []))
        .find((v) => v?.forms.has(step.formKey));
      const form = version?.forms.get(step.formKey);
      if (!version || !form) continue;
      const at = new Date(step.at);
      const key = `${patient.id}/${step.formKey}/${step.instance ?? 1}`;
      const existing = written.get(key) ?? null;
      // The bound fields hold the patient's own values: one source of truth from the first record on.
      const identity = identities.get(step.patientNo);
      const stepData = identity
        ? withPatientValues(form, step.data, { ...identity, gender: identity.gender as '1' | '2' })
        : step.data;
      const verdict = validateRecord(form, stepData, {
        mode: step.status === 'draft' ? 'draft' : 'submit',
        missingCodes: version.missingCodes,
        today: shanghaiDate(new Date()),
      });
      if (!verdict.valid) throw new Error(`demo record ${key} is invalid: ${JSON.stringify(verdict.issues)}`);
      const ctx: AuditContext = { actorId, tenantId: hf.tenantId, requestId: 'seed-demo-records', ip: null };
      const base = {
        tenantId: hf.tenantId,
        projectId: patient.sub ?? patient.projectId,
        patientId: patient.id,
        form,
        versionId: version.id,
        source: { type: 'manual' as const },
      };
      const result = await writeRecord(tx, ctx, {
        ...base,
        existing,
        instance: step.instance ?? 1,
        data: verdict.data,
        softIssues: verdict.issues,
        status: step.status,
        reason: step.reason ?? null,
        actorId,
        at,
      });
      let record = result.record as RecordRow;
      n += existing ? 0 : 1;
      const monitorId = actor.get('monitor');
      if (step.verify && monitorId) {
        const verifiedAt = new Date(step.verify.at);
        const latest = await latestVersionsOf(tx, record.id, step.verify.paths);
        await insertSdvMarks(
          tx,
          latest.map((l) => ({
            tenantId: hf.tenantId,
            recordId: record.id,
            path: l.path,
            valueVersionId: l.id,
            verifiedBy: monitorId,
            verifiedAt,
          })),
        );
        const verified = await writeRecord(
          tx,
          { ...ctx, actorId: monitorId },
          {
            ...base,
            existing: record,
            data: record.data,
            softIssues: [],
            previousSoftIssues: [],
            status: 'verified',
            actorId: monitorId,
            at: verifiedAt,
            action: 'form_record.verify',
          },
        );
        record = verified.record as RecordRow;
      }
      written.set(key, record);
    }
    return n;
  });
}

/** The latest published version of each project (those without one left out). */
async function latestVersions(
  tx: Executor,
  tenantId: string,
  projectIds: string[],
): Promise<Map<string, PublishedVersion>> {
  const cache = createDefinitionCache();
  const ids = await tx.execute<{ id: string; project_id: string }>(sql`
    select distinct on (project_id) id::text as id, project_id::text as project_id from form_versions
    where tenant_id = ${tenantId} and project_id in (${sql.join(
      projectIds.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by project_id, version_no desc`);
  const loaded = await cache.load(
    tx,
    tenantId,
    ids.rows.map((r) => r.id),
  );
  const out = new Map<string, PublishedVersion>();
  for (const r of ids.rows) {
    const v = loaded.get(r.id);
    if (v) out.set(r.project_id, v);
  }
  return out;
}
