import { idNumberFacts } from '@registry/shared/contracts/patient';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db, Executor } from '../../db/client';
import { isUuid, type ProjectScope } from '../../domain/scope/project-scope';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import { findDuplicate, findOpenCenter, findPatient, type PatientRow } from './patient.repository';

/**
 * The messages and checks every patient call shares: who sees a patient, whether identity values show, the identity
 * rules, duplicates and the center; the audit event of an unmasked read.
 */

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
export const M = PATIENT_MESSAGES;

/** The fields of a patient an edit may change. */
export type EditableField =
  'name' | 'gender' | 'birthDate' | 'hospitalNo' | 'idNumber' | 'phone' | 'centerId' | 'enrolDate' | 'status';

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

export const hasPii = (scope: ProjectScope) => scope.permissions.includes(PERMISSIONS.patientPii);

/** The audit event of identity values read unmasked (`entityId`: the one patient read, null for a list page). */
export async function piiRead(tx: Executor, ctx: AuditContext, ids: string[], entityId: string | null, at: Date) {
  await audit(
    tx,
    ctx,
    { action: 'patient.pii_read', entityType: 'patient', entityId, newValue: { patientIds: ids } },
    at,
  );
}

export function createPatientChecks(db: Db) {
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

  return { visible, checkConsistency, refuseDuplicates, onUniqueViolation, resolveCenter };
}
