import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import {
  blankRecord,
  type DataQueryVO,
  type FormRecordVO,
  type QueryListItem,
  type RecordSummary,
  type ValueSource,
  type ValueVersionVO,
} from '@registry/shared/contracts/form-record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import type { PublishedVersion } from '../../domain/crf/definition-cache';
import { showPatientValue } from '@registry/shared/phi-mask';
import type { QueryListRow, QueryRow } from './data-query.repository';
import type { RecordExtras, RecordRow } from './patient-record.repository';
import type { VersionRowOut } from './record-history.repository';
import { isPhiPath, maskData, pathLabelOf, phiKeys } from './record-data';
import { maskedBoundValues, withPatientValues, type BoundValues } from './patient-binding';

/**
 * The data a caller sees: the bound fields hold the patient's current values, `phi` values withheld without
 * `patient.pii` — but a bound identity value shows masked exactly as the patient list shows it (`张*`).
 */
export function shownData(
  form: FormDefinition,
  stored: Readonly<Record<string, unknown>>,
  pii: boolean,
  bound: BoundValues | undefined,
): { data: Record<string, unknown>; maskedPaths: string[] } {
  const source = bound ? withPatientValues(form, stored, bound) : stored;
  if (pii) return { data: { ...source }, maskedPaths: [] };
  const masked = maskData(form, source);
  return bound
    ? { data: { ...masked.data, ...maskedBoundValues(form, bound) }, maskedPaths: masked.maskedPaths }
    : masked;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

export function presentQuery(q: QueryRow): DataQueryVO {
  return {
    id: q.id,
    recordId: q.recordId,
    formKey: q.formKey,
    instance: q.instance,
    path: q.path,
    origin: q.origin,
    message: q.message,
    status: q.status,
    raisedByName: q.raisedByName,
    raisedAt: q.raisedAt.toISOString(),
    answer: q.answer,
    answeredByName: q.answeredByName,
    answeredAt: iso(q.answeredAt),
    closedByName: q.closedByName,
    closedAt: iso(q.closedAt),
    closeNote: q.closeNote,
  };
}

/** A stored record for the edit page: whitelisted fields, `phi` values withheld without `patient.pii`. */
export function presentRecord(
  row: RecordRow,
  ctx: {
    patientId: string;
    version: PublishedVersion;
    form: FormDefinition;
    pii: boolean;
    issues: readonly RecordIssue[];
    extras: RecordExtras;
    /** The patient's values of the form's bound fields (when it has any). */
    bound?: BoundValues;
  },
): FormRecordVO {
  const { data, maskedPaths } = shownData(ctx.form, row.data, ctx.pii, ctx.bound);
  const { names } = ctx.extras;
  return {
    id: row.id,
    patientId: ctx.patientId,
    formKey: row.formKey,
    instance: row.instance,
    versionId: row.versionId,
    versionNo: ctx.version.versionNo,
    status: row.status,
    rowVersion: row.rowVersion,
    data,
    maskedPaths,
    issues: ctx.issues.filter((i) => i.level === 'soft'),
    points: ctx.extras.points.map((p) => ({
      path: p.path,
      versions: p.versions,
      lastAt: p.lastAt.toISOString(),
      lastByName: p.lastByName,
      lastSource: p.lastSource as ValueSource,
      sdv: p.sdv,
      openQueries: p.openQueries,
    })),
    queries: ctx.extras.queries.map(presentQuery),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: names.updated,
    submittedAt: iso(row.submittedAt),
    submittedByName: row.submittedAt ? names.submitted : null,
    verifiedAt: iso(row.verifiedAt),
    verifiedByName: row.verifiedAt ? names.verified : null,
    lockedAt: iso(row.lockedAt),
    lockedByName: row.lockedAt ? names.locked : null,
  };
}

/** A record not saved yet (id null, row version 0) on the version a new record takes. */
export function presentBlankRecord(
  patientId: string,
  formKey: string,
  instance: number,
  version: PublishedVersion,
  shown?: { data: Record<string, unknown>; maskedPaths: string[] },
): FormRecordVO {
  const blank = blankRecord({ patientId, formKey, instance, versionId: version.id, versionNo: version.versionNo });
  return shown ? { ...blank, data: shown.data, maskedPaths: shown.maskedPaths } : blank;
}

export function presentSummary(
  row: RecordRow & { updatedByName: string | null; openQueries: number },
  counts: { filled: number; total: number; missingRequired: number; softIssues: number },
): RecordSummary {
  return {
    id: row.id,
    formKey: row.formKey,
    instance: row.instance,
    versionId: row.versionId,
    status: row.status,
    rowVersion: row.rowVersion,
    ...counts,
    openQueries: row.openQueries,
    createdAt: row.createdAt.toISOString(),
    submittedAt: iso(row.submittedAt),
    verifiedAt: iso(row.verifiedAt),
    lockedAt: iso(row.lockedAt),
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
  };
}

/** A value version; withheld (null, masked) for a `phi` field without `patient.pii`. */
export function presentValueVersion(v: VersionRowOut, form: FormDefinition | undefined, pii: boolean): ValueVersionVO {
  const masked = !pii && form !== undefined && isPhiPath(phiKeys(form), v.path) && v.value !== null;
  return {
    id: v.id,
    path: v.path,
    value: masked ? null : v.value,
    masked,
    reason: v.reason,
    source: v.sourceType as ValueSource,
    sourceRef: (v.sourceRef as Record<string, unknown> | null) ?? null,
    recordRowVersion: v.recordRowVersion,
    actorName: v.actorName,
    at: v.at.toISOString(),
    sdv: v.sdvAt ? { verifiedByName: v.sdvByName, verifiedAt: v.sdvAt.toISOString() } : null,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A row of the open-queries list: the form's title and the data point's label, the patient's name masked without pii. */
export function presentQueryListItem(
  q: QueryListRow,
  ctx: { form: FormDefinition | undefined; pii: boolean; now: Date },
): QueryListItem {
  const end = q.closedAt ?? ctx.now;
  return {
    id: q.id,
    recordId: q.recordId,
    patientId: q.patientId,
    patientNo: q.patientNo,
    patientName: showPatientValue('name', q.patientName, ctx.pii),
    centerId: q.centerId,
    centerName: q.centerName,
    formKey: q.formKey,
    formTitle: ctx.form?.title ?? q.formKey,
    instance: q.instance,
    path: q.path,
    fieldLabel: pathLabelOf(ctx.form, q.path),
    origin: q.origin,
    message: q.message,
    status: q.status,
    raisedByName: q.raisedByName,
    raisedAt: q.raisedAt.toISOString(),
    assignedToName: q.assignedToName,
    answer: q.answer,
    answeredByName: q.answeredByName,
    answeredAt: iso(q.answeredAt),
    closedAt: iso(q.closedAt),
    daysOpen: Math.max(0, Math.floor((end.getTime() - q.raisedAt.getTime()) / DAY_MS)),
  };
}
