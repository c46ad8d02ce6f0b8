import { createHash } from 'node:crypto';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { PERMISSIONS } from '@registry/shared/permissions';
import {
  idNumberFacts,
  PATIENT_SORT_FIELDS,
  type patientCreateRequest,
  type PatientPageResponse,
  type PatientStatus,
  type patientPageRequest,
  type patientUpdateRequest,
  type PatientVO,
} from '@registry/shared/contracts/patient';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { blindIndex, decryptPhi, encryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { existingDictOptions, dictOptionKey } from '../../domain/crf/crf-definition.repository';
import { createDefinitionCache } from '../../domain/crf/definition-cache';
import type { PatientFollowupSync } from '../../domain/patient-change/followup-sync';
import { syncBoundRecords, type BoundValues } from '../patient-record/patient-binding';
import type { BoundAttribute } from '@registry/shared/forms/binding';
import {
  checkFieldQuery,
  LIST_FIELD_MESSAGES,
  listColumnFields,
  pickFieldValues,
  type ListField,
} from './patient-list-fields';
import { showPatientValue } from '@registry/shared/phi-mask';
import { presentPatient } from './patient.presenter';
import {
  findDuplicate,
  findOpenCenter,
  findPatient,
  insertPatientRow,
  nextPatientSeq,
  pagePatients,
  softDeletePatients,
  type PatientCrfQuery,
  updatePatientRow,
  type ListPosition,
  type ListTotal,
  type PatientInsert,
  type PatientRow,
} from './patient.repository';
import { latestVersionIds } from '../../domain/crf/crf-definition.repository';

/** The reads the Excel import (patient-import) makes in its own transaction: this module's surface, not its repository. */
export { findProjectDuplicates, findVisiblePatients } from './patient.repository';
export type { PatientRow } from './patient.repository';

export const PATIENT_MESSAGES = {
  notFound: '患者不存在',
  centerNotFound: '中心不存在或已关闭',
  centerRequired: '请选择中心',
  stale: '患者信息已被他人修改，请刷新后重试',
  reasonRequired: '请填写删除原因',
  invalid: '患者信息有误，请检查后重试',
  idBirthMismatch: '出生日期与身份证号不一致',
  idGenderMismatch: '性别与身份证号不一致',
  piiSearch: '没有查看患者身份信息的权限，不能按身份证号或姓名查询',
  piiHospitalNoFilter: '没有查看患者身份信息的权限，不能按住院号查询',
  piiHospitalNoSort: '没有查看患者身份信息的权限，不能按住院号排序',
  badCursor: '分页游标无效，请从第一页重新查询',
} as const;
const M = PATIENT_MESSAGES;

type CreateInput = z.output<typeof patientCreateRequest>;
type UpdateInput = z.output<typeof patientUpdateRequest>;
type PageInput = z.output<typeof patientPageRequest>;

/** Identity data as it may enter the audit trail: masked, never plaintext. */
export type EditableField =
  'name' | 'gender' | 'birthDate' | 'hospitalNo' | 'idNumber' | 'phone' | 'centerId' | 'enrolDate' | 'status';

type AuditValues = Record<string, string | null>;

const BOUND_ATTRIBUTES: ReadonlySet<string> = new Set<BoundAttribute>([
  'name',
  'gender',
  'birthDate',
  'idNumber',
  'phone',
  'hospitalNo',
]);

export type PatientService = ReturnType<typeof createPatientService>;

/**
 * The totals of patient lists (scope and filters, keyed by project id) counted in the last 30 seconds: paging through
 * a list counts it once, not on every click. Whatever adds, edits or removes patients calls forgetPatientListTotals
 * (this service does; so must an import); a change made by another server instance shows in a total within 30 seconds
 * (the rows themselves are always read fresh).
 */
const totals = new Map<string, { total: ListTotal; until: number }>();
export function forgetPatientListTotals(): void {
  totals.clear();
}

/** `nextCursor`: the last row's position and the list it belongs to, base64url JSON (not a secret, not trusted). */
function encodeListCursor(at: ListPosition, listKey: string): string {
  return Buffer.from(JSON.stringify({ s: at.seq, n: at.isNull ? 1 : 0, k: listKey })).toString('base64url');
}

/** The position of a cursor of this list; a malformed cursor is a 400, another list's is ignored. */
function decodeListCursor(cursor: string, listKey: string): ListPosition | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const c = parsed as { s?: unknown; n?: unknown; k?: unknown } | undefined;
  if (
    typeof c !== 'object' ||
    c === null ||
    !Number.isInteger(c.s) ||
    (c.s as number) < 1 ||
    (c.n !== 0 && c.n !== 1) ||
    typeof c.k !== 'string'
  )
    throw new AppError(400, M.badCursor, [{ path: 'cursor', message: M.badCursor }]);
  return c.k === listKey ? { seq: c.s as number, isNull: c.n === 1 } : undefined;
}

/** The demographics of a patient as its edits compare them (identity number and phone decrypted). */
export type PatientValues = Record<EditableField, string | null>;

/** A planned edit of a patient: the values before, after, and the fields that change. */
export type PatientUpdatePlan = {
  before: PatientRow;
  old: PatientValues;
  next: PatientValues;
  changed: EditableField[];
};

/**
 * Birth date and gender must agree with the identity number when both are given: the issues (path `idNumber`,
 * `birthDate` or `gender`), none without an identity number.
 */
export function identityIssues(v: {
  idNumber?: string | null;
  birthDate?: string | null;
  gender?: string | null;
}): { path: EditableField; message: string }[] {
  if (!v.idNumber) return [];
  const facts = idNumberFacts(v.idNumber);
  const issues: { path: EditableField; message: string }[] = [];
  if (!facts) issues.push({ path: 'idNumber', message: '身份证号中的出生日期无效' });
  else {
    if (v.birthDate && v.birthDate !== facts.birthDate) issues.push({ path: 'birthDate', message: M.idBirthMismatch });
    if (v.gender && (v.gender === '1' || v.gender === '2') && v.gender !== facts.gender)
      issues.push({ path: 'gender', message: M.idGenderMismatch });
  }
  return issues;
}

export function createPatientService(deps: {
  db: Db;
  clock: Clock;
  keys: PhiKeys;
  /** The follow-up kept in step with each change, in its transaction (the follow-up module's, from buildApp). */
  followup: PatientFollowupSync;
}) {
  const { db, clock, keys, followup } = deps;
  const hasPii = (scope: ProjectScope) => scope.permissions.includes(PERMISSIONS.patientPii);
  /** Published versions are immutable: parsed once, and their list fields computed once per set of version ids. */
  const definitions = createDefinitionCache();
  const listFields = new Map<string, ListField[]>();
  const countedOnce =
    (key: string) =>
    async (count: () => Promise<ListTotal>): Promise<ListTotal> => {
      const now = clock.now().getTime();
      const hit = totals.get(key);
      if (hit && hit.until > now) return hit.total;
      const total = await count();
      totals.set(key, { total, until: now + 30_000 });
      if (totals.size > 1000) totals.delete(totals.keys().next().value ?? '');
      return total;
    };

  async function visible(scope: ProjectScope, id: string, executor: Executor = db): Promise<PatientRow> {
    const row = isUuid(id) ? await findPatient(executor, scope, id) : undefined;
    if (!row) throw new AppError(404, M.notFound);
    return row;
  }

  /** Birth date and gender must agree with the identity number when both are given (field issues, 400). */
  function checkConsistency(v: { idNumber?: string | null; birthDate?: string | null; gender?: string | null }) {
    const issues = identityIssues(v);
    if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? M.invalid, issues);
  }

  async function refuseDuplicates(
    scope: ProjectScope,
    by: { idNumberBi?: string | null; hospitalNo?: string | null },
    exceptId?: string,
  ) {
    const found = await findDuplicate(db, scope.rootProjectId, by, exceptId);
    const first = found[0];
    if (!first) return;
    const what = first.kind === 'idNumber' ? '身份证号' : '住院号';
    const who = hasPii(scope) ? `${first.patientNo}（${first.name}）` : first.patientNo;
    throw new AppError(409, `${what}已存在：与患者 ${who} 重复`, [
      { path: first.kind, message: `${what}已存在：与患者 ${who} 重复` },
    ]);
  }

  /** A concurrent add or edit won the unique index: answer the same 409 as the check before. */
  async function onUniqueViolation<T>(
    scope: ProjectScope,
    by: { idNumberBi?: string | null; hospitalNo?: string | null },
    exceptId: string | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: string }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505')
        await refuseDuplicates(scope, by, exceptId);
      throw err;
    }
  }

  async function resolveCenter(
    scope: ProjectScope,
    requested: string | undefined,
  ): Promise<{ id: string; code: string }> {
    const id = scope.centerId ?? requested;
    if (!id) throw new AppError(400, M.centerRequired, [{ path: 'centerId', message: M.centerRequired }]);
    if (scope.centerId && requested && requested !== scope.centerId) throw new AppError(404, M.centerNotFound);
    const center = await findOpenCenter(db, scope, id);
    if (!center) throw new AppError(404, M.centerNotFound);
    return center;
  }

  const auditValues = (v: {
    name?: string | null;
    gender?: string | null;
    birthDate?: string | null;
    hospitalNo?: string | null;
    idNumber?: string | null;
    phone?: string | null;
    centerId?: string | null;
    enrolDate?: string | null;
    status?: string | null;
  }): AuditValues => {
    const out: AuditValues = {};
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) continue;
      // The trail keeps only the masked form of identity values (the one policy, `@registry/shared/phi-mask`).
      out[k] = showPatientValue(k, value, false);
    }
    return out;
  };

  async function piiRead(tx: Executor, ctx: AuditContext, ids: string[], entityId: string | null, at: Date) {
    await audit(
      tx,
      ctx,
      { action: 'patient.pii_read', entityType: 'patient', entityId, newValue: { patientIds: ids } },
      at,
    );
  }

  /**
   * Inserts a new patient inside the caller's transaction: the project sequence number and patient number, identity
   * number and phone encrypted with their blind indexes, birth date and gender filled from the identity number when
   * absent, and the `patient.create` audit event (identity data masked). The caller has checked the center (open, in
   * scope), the identity rules and duplicates; the unique indexes still refuse a duplicate that raced in (23505).
   */
  async function insertPatient(
    tx: Executor,
    scope: ProjectScope,
    center: { id: string; code: string },
    input: Omit<CreateInput, 'centerId'>,
    ctx: AuditContext,
    now: Date,
  ): Promise<{ id: string; patientNo: string }> {
    forgetPatientListTotals(); // and again after the commit: the callers do
    const facts = input.idNumber ? idNumberFacts(input.idNumber) : null;
    const seq = await nextPatientSeq(tx, scope.rootProjectId);
    const patientNo = `${center.code}-${String(seq).padStart(4, '0')}`;
    const values: PatientInsert = {
      tenantId: scope.tenantId,
      projectId: scope.rootProjectId,
      subProjectId: scope.projectId !== scope.rootProjectId ? scope.projectId : null,
      centerId: center.id,
      seq,
      patientNo,
      name: input.name,
      gender: input.gender ?? facts?.gender ?? null,
      birthDate: input.birthDate ?? facts?.birthDate ?? null,
      hospitalNo: input.hospitalNo ?? null,
      idNumberEnc: input.idNumber ? encryptPhi(keys, input.idNumber) : null,
      idNumberBi: input.idNumber ? blindIndex(keys, input.idNumber) : null,
      phoneEnc: input.phone ? encryptPhi(keys, input.phone) : null,
      phoneBi: input.phone ? blindIndex(keys, input.phone) : null,
      enrolDate: input.enrolDate ?? null,
      status: input.status ?? 'screening',
      createdBy: scope.userId,
      createdAt: now,
      updatedBy: scope.userId,
      updatedAt: now,
    };
    const row = await insertPatientRow(tx, values);
    await audit(
      tx,
      ctx,
      {
        action: 'patient.create',
        entityType: 'patient',
        entityId: row.id,
        newValue: {
          patientNo,
          ...auditValues({
            name: input.name,
            gender: values.gender,
            birthDate: values.birthDate,
            hospitalNo: values.hospitalNo,
            idNumber: input.idNumber ?? null,
            phone: input.phone ?? null,
            centerId: center.id,
            enrolDate: values.enrolDate,
            status: values.status,
          }),
        },
      },
      now,
    );
    return { id: row.id, patientNo };
  }

  /** The current values of a patient (identity data decrypted), as the edits compare them. */
  function valuesOf(before: PatientRow): PatientValues {
    return {
      name: before.name,
      gender: before.gender,
      birthDate: before.birthDate,
      hospitalNo: before.hospitalNo,
      idNumber: before.idNumberEnc ? decryptPhi(keys, before.idNumberEnc) : null,
      phone: before.phoneEnc ? decryptPhi(keys, before.phoneEnc) : null,
      centerId: before.centerId,
      enrolDate: before.enrolDate,
      status: before.status,
    };
  }

  /**
   * What an edit changes: the current values (identity data decrypted), the next ones (`undefined` keeps a value,
   * null clears it) and the changed fields; a new identity number fills an empty birth date and gender, as on add.
   */
  function planUpdate(before: PatientRow, input: Partial<Record<EditableField, string | null>>): PatientUpdatePlan {
    const old = valuesOf(before);
    const next = { ...old };
    const changed: EditableField[] = [];
    for (const k of Object.keys(old) as EditableField[]) {
      const value = input[k];
      if (value === undefined || value === old[k]) continue;
      next[k] = value;
      changed.push(k);
    }
    const facts = changed.includes('idNumber') && next.idNumber ? idNumberFacts(next.idNumber) : null;
    if (facts && next.birthDate === null && input.birthDate === undefined) {
      next.birthDate = facts.birthDate;
      changed.push('birthDate');
    }
    if (facts && next.gender === null && input.gender === undefined) {
      next.gender = facts.gender;
      changed.push('gender');
    }
    return { before, old, next, changed };
  }

  /**
   * Writes a planned edit inside the caller's transaction: `UPDATE … WHERE row_version` (409 when someone saved in
   * between), identity data re-encrypted with new blind indexes, and the `patient.update` audit event with the old
   * and new values of the changed fields (identity data masked). The caller has checked center, identity rules and
   * duplicates.
   */
  async function writeUpdate(
    tx: Executor,
    scope: ProjectScope,
    plan: PatientUpdatePlan,
    rowVersion: number,
    ctx: AuditContext,
    now: Date,
  ): Promise<void> {
    forgetPatientListTotals(); // and again after the commit: the callers do
    const { before, old, next, changed } = plan;
    const set: Partial<PatientInsert> = {};
    for (const k of changed) {
      if (k === 'idNumber') {
        set.idNumberEnc = next.idNumber ? encryptPhi(keys, next.idNumber) : null;
        set.idNumberBi = next.idNumber ? blindIndex(keys, next.idNumber) : null;
      } else if (k === 'phone') {
        set.phoneEnc = next.phone ? encryptPhi(keys, next.phone) : null;
        set.phoneBi = next.phone ? blindIndex(keys, next.phone) : null;
      } else if (k === 'name') set.name = next.name ?? before.name;
      else if (k === 'status') set.status = (next.status ?? before.status) as PatientStatus;
      else if (k === 'centerId') set.centerId = next.centerId ?? before.centerId;
      else set[k] = next[k];
    }
    const row = await updatePatientRow(tx, scope, before.id, rowVersion, {
      ...set,
      updatedBy: scope.userId,
      updatedAt: now,
    });
    if (!row) throw new AppError(409, M.stale);
    // The CRF fields bound to the patient (issue 12) follow it in the same transaction.
    if (changed.some((k) => BOUND_ATTRIBUTES.has(k)))
      await syncBoundRecords(tx, ctx, { scope, patientId: before.id, values: next, at: now });
    const pick = (v: PatientValues) => auditValues(Object.fromEntries(changed.map((k) => [k, v[k]])));
    await audit(
      tx,
      ctx,
      {
        action: 'patient.update',
        entityType: 'patient',
        entityId: before.id,
        oldValue: { rowVersion: before.rowVersion, ...pick(old) },
        newValue: { rowVersion: row.rowVersion, ...pick(next) },
      },
      now,
    );
  }

  /**
   * The CRF side of a page: the list fields of the published definitions (the project's, and the parent's for a
   * sub-project), the checked `fieldFilters` and `field:<key>` sort (400 naming a key that is not a list field; a
   * dictionary code must be an enabled option of its list).
   */
  async function listQuery(
    scope: ProjectScope,
    q: PageInput,
    pii: boolean,
    ids: readonly string[],
  ): Promise<PatientCrfQuery> {
    // The immutable versions and their list fields from memory.
    const fieldsKey = ids.join(',');
    let fields = listFields.get(fieldsKey);
    if (!fields) {
      const versions = await definitions.load(db, scope.tenantId, ids);
      fields = listColumnFields(ids.flatMap((id) => versions.get(id)?.definition ?? []));
      listFields.set(fieldsKey, fields);
      if (listFields.size > 200) listFields.delete(listFields.keys().next().value ?? '');
    }
    const checked = checkFieldQuery(fields, q.fieldFilters ?? [], q.sortField, pii);
    if (checked.dictCodes.length > 0) {
      const known = await existingDictOptions(db, scope.tenantId, checked.dictCodes);
      const issues = checked.dictCodes
        .filter((d) => !known.has(dictOptionKey(d.dictCode, d.code)))
        .map((d) => ({ path: `fieldFilters.${d.index}.value`, message: LIST_FIELD_MESSAGES.option(d.label, d.code) }));
      if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? M.invalid, issues);
    }
    return { fields, conditions: checked.conditions, ...(checked.sort ? { sortField: checked.sort } : {}) };
  }

  return {
    /** For the import (`modules/patient-import`): the same writes as add and edit, inside the caller's transaction. */
    insertInTransaction: insertPatient,
    planUpdate,
    updateInTransaction: writeUpdate,

    /**
     * For the CRF fields bound to the patient (`modules/patient-record`, issue 12): the patient's identity values, in
     * clear (the caller masks them for a user without `patient.pii`). 404 outside the caller's scope.
     */
    async boundValues(scope: ProjectScope, patientId: string): Promise<BoundValues> {
      return valuesOf(await visible(scope, patientId));
    },

    /**
     * A record save's change of bound attributes, checked exactly as 编辑患者 checks it (identity number, birth date
     * and sex agree; identity and hospital numbers unique in the project: 400 / 409), or null when nothing changes.
     */
    async planBoundUpdate(
      scope: ProjectScope,
      patientId: string,
      changes: Partial<Record<BoundAttribute, string | null>>,
    ): Promise<PatientUpdatePlan | null> {
      const before = await visible(scope, patientId);
      const plan = planUpdate(before, changes);
      const { next, changed } = plan;
      if (changed.length === 0) return null;
      if (changed.some((k) => k === 'idNumber' || k === 'birthDate' || k === 'gender')) checkConsistency(next);
      await refuseDuplicates(
        scope,
        {
          idNumberBi: changed.includes('idNumber') && next.idNumber ? blindIndex(keys, next.idNumber) : null,
          hospitalNo: changed.includes('hospitalNo') ? next.hospitalNo : null,
        },
        before.id,
      );
      return plan;
    },

    /** Writes a planned bound change inside the record save's transaction (audited `patient.update`, follow-up sync). */
    async applyBoundUpdate(tx: Executor, scope: ProjectScope, plan: PatientUpdatePlan, ctx: AuditContext, now: Date) {
      await writeUpdate(tx, scope, plan, plan.before.rowVersion, ctx, now);
      await followup.syncPatient(tx, ctx, plan.before.id, now);
      forgetPatientListTotals();
    },

    async page(auth: AuthContext, q: PageInput, ctx: AuditContext): Promise<PatientPageResponse> {
      const scope = await requireProjectScope(db, auth);
      const pii = hasPii(scope);
      if (!pii && q.idNumber) throw new AppError(403, M.piiSearch);
      // one masking policy (shared/phi-mask.ts): a value shown masked can be neither filtered nor sorted on, else a
      // prefix or an order would reveal it
      if (!pii && q.hospitalNo) throw new AppError(403, M.piiHospitalNoFilter);
      if (!pii && q.sortField === 'hospitalNo') throw new AppError(403, M.piiHospitalNoSort);
      const filter = {
        keyword: q.keyword || undefined,
        piiSearch: pii,
        hospitalNo: q.hospitalNo || undefined,
        idNumberBi: q.idNumber ? blindIndex(keys, q.idNumber) : undefined,
        centerId: q.centerId,
        status: q.status,
        enrolDateFrom: q.enrolDateFrom,
        enrolDateTo: q.enrolDateTo,
        ...(q.followupStatus ? { followup: { status: q.followupStatus, today: shanghaiDate(clock.now()) } } : {}),
      };
      // The ids of the latest published versions: read with the session, else while the transaction begins.
      const known = auth.currentProject?.id === scope.projectId ? auth.currentProject.latestVersionIds : undefined;
      const versionIds = known
        ? Promise.resolve(known)
        : latestVersionIds(
            db,
            scope.tenantId,
            scope.rootProjectId !== scope.projectId ? [scope.projectId, scope.rootProjectId] : [scope.projectId],
          );
      versionIds.catch(() => undefined); // awaited in the transaction; never an unhandled rejection meanwhile
      const sortField = PATIENT_SORT_FIELDS.find((f) => f === q.sortField);
      // A cursor belongs to one list: the scope, filters and sort it was made for (else ignored: OFFSET paging).
      const listKey = createHash('sha256')
        .update(
          JSON.stringify([
            scope.projectId,
            scope.centerId,
            filter,
            q.fieldFilters ?? [],
            q.sortField ?? 'createdAt',
            q.sortOrder ?? 'desc',
          ]),
        )
        .digest('base64url')
        .slice(0, 12);
      const after = q.cursor && q.current > 1 ? decodeListCursor(q.cursor, listKey) : undefined;
      const totalKey = JSON.stringify([scope.projectId, scope.centerId, filter, q.fieldFilters ?? []]);
      const paging = { current: q.current, size: q.size, sortField, sortOrder: q.sortOrder, after };
      // The read and its audit event share one transaction: no unmasked page leaves without its event.
      let crf: PatientCrfQuery = { fields: [], conditions: [] };
      const { records, total, totalExact, next, values } = await db.transaction(async (tx) => {
        crf = await listQuery(scope, q, pii, await versionIds);
        const result = await pagePatients(tx, scope, filter, paging, crf, countedOnce(totalKey));
        if (pii && result.records.length > 0)
          await piiRead(
            tx,
            ctx,
            result.records.map((r) => r.id),
            null,
            clock.now(),
          );
        return result;
      });
      return {
        records: records.map((r) => ({
          ...presentPatient(r, keys, pii),
          fields: pickFieldValues(crf.fields, values.get(r.id) ?? new Map(), pii),
        })),
        total,
        totalExact,
        nextCursor: next ? encodeListCursor(next, listKey) : null,
        current: q.current,
        size: q.size,
      };
    },

    async get(auth: AuthContext, id: string, ctx: AuditContext): Promise<PatientVO> {
      const scope = await requireProjectScope(db, auth);
      const pii = hasPii(scope);
      const row = await db.transaction(async (tx) => {
        const found = await visible(scope, id, tx);
        if (pii) await piiRead(tx, ctx, [found.id], found.id, clock.now());
        return found;
      });
      return presentPatient(row, keys, pii);
    },

    async create(auth: AuthContext, input: CreateInput, ctx: AuditContext): Promise<PatientVO> {
      const scope = await requireProjectScope(db, auth);
      const center = await resolveCenter(scope, input.centerId);
      checkConsistency(input);
      const dup = {
        idNumberBi: input.idNumber ? blindIndex(keys, input.idNumber) : null,
        hospitalNo: input.hospitalNo ?? null,
      };
      await refuseDuplicates(scope, dup);
      const now = clock.now();
      const { id } = await onUniqueViolation(scope, dup, undefined, () =>
        db.transaction(async (tx) => {
          const created = await insertPatient(tx, scope, center, input, ctx, now);
          await followup.syncPatient(tx, ctx, created.id, now); // follow-up plans by rule, their tasks
          return created;
        }),
      );
      forgetPatientListTotals();
      return presentPatient(await visible(scope, id), keys, hasPii(scope));
    },

    async update(auth: AuthContext, input: UpdateInput, ctx: AuditContext): Promise<PatientVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await visible(scope, input.id);
      const plan = planUpdate(before, input);
      const { next, changed } = plan;
      if (input.rowVersion !== before.rowVersion) throw new AppError(409, M.stale);
      if (changed.length === 0) return presentPatient(before, keys, hasPii(scope));
      if (changed.includes('centerId')) await resolveCenter(scope, next.centerId ?? undefined);
      if (changed.some((k) => k === 'idNumber' || k === 'birthDate' || k === 'gender')) checkConsistency(next);
      const dup = {
        idNumberBi: changed.includes('idNumber') && next.idNumber ? blindIndex(keys, next.idNumber) : null,
        hospitalNo: changed.includes('hospitalNo') ? next.hospitalNo : null,
      };
      await refuseDuplicates(scope, dup, before.id);
      const now = clock.now();
      await onUniqueViolation(scope, dup, before.id, () =>
        db.transaction(async (tx) => {
          await writeUpdate(tx, scope, plan, input.rowVersion, ctx, now);
          await followup.syncPatient(tx, ctx, before.id, now); // anchors, rules, deceased: tasks follow the patient
        }),
      );
      forgetPatientListTotals();
      return presentPatient(await visible(scope, before.id), keys, hasPii(scope));
    },

    async remove(auth: AuthContext, ids: string[], reason: string | undefined, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const why = reason?.trim();
      if (!why) throw new AppError(400, M.reasonRequired, [{ path: 'reason', message: M.reasonRequired }]);
      const unique = [...new Set(ids.map((x) => x.toLowerCase()))];
      const now = clock.now();
      const deleted = await db.transaction(async (tx) => {
        const rows = await softDeletePatients(tx, scope, unique, {
          deletedAt: now,
          deleteReason: why,
          updatedBy: scope.userId,
          updatedAt: now,
        });
        // All or nothing: an id that is missing, deleted or outside the scope answers 404 and nothing changes.
        if (rows.length !== unique.length) throw new AppError(404, M.notFound);
        for (const row of rows) {
          await audit(
            tx,
            ctx,
            {
              action: 'patient.delete',
              entityType: 'patient',
              entityId: row.id,
              oldValue: { patientNo: row.patientNo },
              newValue: { deleted: true },
              reason: why,
            },
            now,
          );
          await followup.syncPatient(tx, ctx, row.id, now); // open follow-up tasks cancelled, assignments stopped
        }
        return rows.length;
      });
      forgetPatientListTotals();
      return { deleted };
    },
  };
}
