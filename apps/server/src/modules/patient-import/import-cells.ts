import {
  PATIENT_GENDER_LABELS,
  PATIENT_GENDERS,
  PATIENT_STATUS_LABELS,
  PATIENT_STATUSES,
} from '@registry/shared/contracts/patient';
import { YES_NO_OPTIONS, type FieldDefinition } from '@registry/shared/forms/definition';
import { maskIdNumber, maskName, maskPhone } from '@registry/shared/phi-mask';
import type { DemographicKey, ImportColumn } from './import-columns';
import { cellText, type RawCell } from './import-workbook';

/**
 * Cells → values. A cell becomes what the stored data hold (numbers for numeric fields, `YYYY-MM-DD` for dates, option
 * codes for choices), or stays as its text when it cannot, so that the form engine names the problem with its own
 * message. A missing-data code the field accepts is kept as the code.
 */

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): Parsed => ({ ok: true, value });
const bad = (message: string): Parsed => ({ ok: false, message });

const pad = (n: number) => String(n).padStart(2, '0');

/** An Excel date (a `Date` of the sheet's wall-clock time in UTC) as `YYYY-MM-DD`. */
const isoDay = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** `2026/1/5`, `2026.01.05`, `2026-1-5` → `2026-01-05`; anything else unchanged. */
function normaliseDateText(s: string): string {
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(s);
  return m ? `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}` : s;
}

function normaliseDateTimeText(s: string): string {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})[ T](\d{1,2}):(\d{2})(?::\d{2})?$/.exec(s);
  return m ? `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}T${pad(Number(m[4]))}:${m[5]}` : s;
}

const asText = (raw: RawCell): string => (typeof raw === 'string' ? raw : cellText(raw));

/** An option code by its code or label (codes first), or undefined. */
function codeOf(text: string, options: readonly { code: string; label: string }[]): string | undefined {
  return options.find((o) => o.code === text)?.code ?? options.find((o) => o.label === text)?.code;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** The value of a data field's cell. `dictOptions`: the options of the field's dictionary (labels accepted). */
export function parseFieldCell(
  field: FieldDefinition,
  raw: RawCell,
  accepted: ReadonlySet<string>,
  dictOptions: readonly { code: string; label: string }[],
): Parsed {
  const text = asText(raw).trim();
  if (typeof raw === 'string' && accepted.has(text) && (field.missingCodes ?? []).includes(text)) return ok(text);
  const name = `「${field.label}」`;
  switch (field.type) {
    case 'integer':
    case 'decimal': {
      if (typeof raw === 'number') return ok(raw);
      if (typeof raw === 'string' && NUMBER.test(raw.replace(/,/g, ''))) return ok(Number(raw.replace(/,/g, '')));
      return bad(`${name}须为数字`);
    }
    case 'date':
      if (raw instanceof Date) return ok(isoDay(raw));
      if (typeof raw === 'number') return bad(`${name}须为有效日期（YYYY-MM-DD）`);
      return ok(normaliseDateText(text));
    case 'datetime':
      if (raw instanceof Date) return ok(`${isoDay(raw)}T${pad(raw.getUTCHours())}:${pad(raw.getUTCMinutes())}`);
      return ok(normaliseDateTimeText(text));
    case 'partialDate':
      if (raw instanceof Date) return ok(isoDay(raw));
      return ok(normaliseDateText(text));
    case 'radio':
      return ok(codeOf(text, field.options ?? []) ?? text);
    case 'yesno': {
      if (typeof raw === 'boolean') return ok(raw ? '1' : '0');
      const yes = ['是', '1', 'Y', 'y', 'yes', 'Yes', 'YES', 'TRUE', 'true'];
      const no = ['否', '0', 'N', 'n', 'no', 'No', 'NO', 'FALSE', 'false'];
      return ok(yes.includes(text) ? YES_NO_OPTIONS[0].code : no.includes(text) ? YES_NO_OPTIONS[1].code : text);
    }
    case 'dict':
      return ok(codeOf(text, dictOptions) ?? text);
    case 'checkbox': {
      const parts = text
        .split(/[,，;；、|]/)
        .map((p) => p.trim())
        .filter((p) => p !== '');
      return ok(parts.map((p) => codeOf(p, field.options ?? []) ?? p));
    }
    default:
      return ok(text);
  }
}

const GENDER_OPTIONS = PATIENT_GENDERS.map((code) => ({ code, label: PATIENT_GENDER_LABELS[code] }));
const STATUS_OPTIONS = PATIENT_STATUSES.map((code) => ({ code, label: PATIENT_STATUS_LABELS[code] }));

/**
 * The value of a demographic cell, as the patient contract takes it (which then checks it: name length, hospital
 * number pattern, identity number checksum, phone format, dates).
 */
export function parseDemographicCell(key: DemographicKey, raw: RawCell): Parsed {
  const text = asText(raw).trim();
  switch (key) {
    case 'gender': {
      const code = codeOf(text, GENDER_OPTIONS) ?? (text === '男性' ? '1' : text === '女性' ? '2' : undefined);
      return code ? ok(code) : bad(`性别应为 ${GENDER_OPTIONS.map((o) => o.label).join('、')} 之一`);
    }
    case 'status': {
      const code = codeOf(text, STATUS_OPTIONS);
      return code ? ok(code) : bad(`状态应为 ${STATUS_OPTIONS.map((o) => o.label).join('、')} 之一`);
    }
    case 'birthDate':
    case 'enrolDate':
      if (raw instanceof Date) return ok(isoDay(raw));
      if (typeof raw === 'number')
        return bad(`${key === 'birthDate' ? '出生日期' : '入组日期'}格式不正确（YYYY-MM-DD）`);
      return ok(normaliseDateText(text));
    case 'idNumber':
      // 18 digits do not fit a double: Excel has already lost the last ones
      if (typeof raw === 'number') return bad('身份证号须以文本格式填写（数字格式会丢失末位）');
      return ok(text);
    case 'hospitalNo':
    case 'phone':
    case 'patientNo':
    case 'centerCode':
    case 'name':
      return ok(typeof raw === 'number' ? String(raw) : text);
  }
}

/**
 * How the report shows a cell: identity numbers and phones masked (the patient list's masks), as are the values of
 * CRF fields flagged PHI.
 */
export function reportText(column: ImportColumn, raw: RawCell): string {
  const text = asText(raw);
  if (column.kind === 'demographic')
    return column.key === 'idNumber' ? maskIdNumber(text) : column.key === 'phone' ? maskPhone(text) : text;
  if (!column.field.phi) return text;
  if (/^\d{17}[\dXx]$/.test(text)) return maskIdNumber(text);
  if (/^1\d{10}$/.test(text)) return maskPhone(text);
  return maskName(text);
}
