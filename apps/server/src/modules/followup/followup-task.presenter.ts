import ExcelJS from 'exceljs';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_OUTCOME_LABELS,
  type ContactMethod,
  type ContactOutcome,
  type ContactVO,
  type TaskListItem,
  type TaskState,
  type VisitVO,
} from '@registry/shared/contracts/followup';
import { PATIENT_GENDER_LABELS, type PatientGender } from '@registry/shared/contracts/patient';
import { TASK_STATE_LABELS, type OffsetUnit, type TaskStatus } from '@registry/shared/followup/schedule';
import { decryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import { showPatientValue } from '@registry/shared/phi-mask';
import { maskName, maskPhone } from '@registry/shared/phi-mask';
import type { TaskDetailRow, TaskListRow } from './followup-task.repository';
import type { ContactRow } from './followup-record.repository';

/** A timestamp of a raw subquery (text from the driver) or a column (a Date). */
const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** A worklist row: identity data (name, phone) decrypted, then masked unless `pii`. */
export function presentTask(row: TaskListRow, keys: PhiKeys, pii: boolean): TaskListItem {
  const phone = row.phoneEnc ? decryptPhi(keys, row.phoneEnc) : null;
  return {
    id: row.id,
    patientId: row.patientId,
    patientNo: row.patientNo,
    patientName: pii ? row.patientName : maskName(row.patientName),
    gender: row.gender,
    phone: phone === null ? null : pii ? phone : maskPhone(phone),
    centerId: row.centerId,
    centerName: row.centerName,
    planId: row.planId,
    planName: row.planName,
    visitId: row.visitId,
    visitName: row.visitName,
    contactMethod: row.contactMethod as ContactMethod,
    dueDate: row.dueDate,
    windowStart: row.windowStart,
    windowEnd: row.windowEnd,
    status: row.status as TaskStatus,
    state: row.state as TaskState,
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    attempts: row.attempts,
    lastContactAt: iso(row.lastContactAt),
    lastOutcome: (row.lastOutcome as ContactOutcome | null) ?? null,
    closedAt: iso(row.closedAt),
    closedReason: row.closedReason,
    rowVersion: row.rowVersion,
  };
}

export function presentContact(row: ContactRow): ContactVO {
  return {
    id: row.id,
    taskId: row.taskId,
    contactedAt: row.contactedAt.toISOString(),
    method: row.method as ContactMethod,
    outcome: row.outcome,
    note: row.note,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentVisit(row: TaskDetailRow): VisitVO {
  return {
    id: row.visitId,
    seq: row.visitSeq,
    name: row.visitName,
    offset: row.visitOffset,
    offsetUnit: (row.visitOffsetUnit as OffsetUnit | null) ?? null,
    fixedDate: row.visitFixedDate,
    windowBefore: row.visitWindowBefore,
    windowAfter: row.visitWindowAfter,
    formKeys: row.visitFormKeys,
    contactMethod: row.contactMethod as ContactMethod,
  };
}

/** The patient block of the record page (identity data masked unless `pii`). */
export function presentTaskPatient(row: TaskDetailRow, keys: PhiKeys, pii: boolean) {
  const phone = row.phoneEnc ? decryptPhi(keys, row.phoneEnc) : null;
  return {
    id: row.patientId,
    patientNo: row.patientNo,
    name: pii ? row.patientName : maskName(row.patientName),
    gender: row.gender,
    birthDate: showPatientValue('birthDate', row.birthDate, pii),
    phone: phone === null ? null : pii ? phone : maskPhone(phone),
    enrolDate: row.enrolDate,
    status: row.patientStatus,
    deathDate: row.deathDate,
    deathCause: row.deathCause,
    lostAt: iso(row.lostAt),
    lostReason: row.lostReason,
  };
}

/** Column headers, widths and cells of the export (one row per task, as the worklist shows it). */
const EXPORT_COLUMNS: readonly { header: string; width: number; cell: (t: TaskListItem) => string | number }[] = [
  { header: '患者编号', width: 14, cell: (t) => t.patientNo },
  { header: '姓名', width: 10, cell: (t) => t.patientName },
  { header: '性别', width: 6, cell: (t) => (t.gender ? (PATIENT_GENDER_LABELS[t.gender as PatientGender] ?? '') : '') },
  { header: '联系电话', width: 14, cell: (t) => t.phone ?? '' },
  { header: '中心', width: 20, cell: (t) => t.centerName },
  { header: '随访计划', width: 20, cell: (t) => t.planName },
  { header: '访视', width: 14, cell: (t) => t.visitName },
  { header: '随访方式', width: 8, cell: (t) => CONTACT_METHOD_LABELS[t.contactMethod] },
  { header: '应随访日期', width: 12, cell: (t) => t.dueDate },
  { header: '窗口开始', width: 12, cell: (t) => t.windowStart },
  { header: '窗口结束', width: 12, cell: (t) => t.windowEnd },
  { header: '状态', width: 8, cell: (t) => TASK_STATE_LABELS[t.state] },
  { header: '负责人', width: 10, cell: (t) => t.ownerName ?? '' },
  { header: '联系次数', width: 8, cell: (t) => t.attempts },
  { header: '最近联系时间', width: 18, cell: (t) => (t.lastContactAt ? shanghaiDateTime(t.lastContactAt) : '') },
  { header: '最近联系结果', width: 10, cell: (t) => (t.lastOutcome ? CONTACT_OUTCOME_LABELS[t.lastOutcome] : '') },
  { header: '关闭时间', width: 18, cell: (t) => (t.closedAt ? shanghaiDateTime(t.closedAt) : '') },
  { header: '关闭原因', width: 20, cell: (t) => t.closedReason ?? '' },
];

const SHANGHAI_TIME = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
/** `2026-03-02 08:30` in China Standard Time. */
export const shanghaiDateTime = (value: string): string => SHANGHAI_TIME.format(new Date(value));

/** The worklist as an .xlsx workbook (one sheet, a header row, one row per task). */
export async function worklistWorkbook(rows: readonly TaskListItem[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('随访列表');
  sheet.columns = EXPORT_COLUMNS.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows) sheet.addRow(Object.fromEntries(EXPORT_COLUMNS.map((c, i) => [`c${i}`, c.cell(row)])));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
