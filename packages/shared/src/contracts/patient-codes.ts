/**
 * The codes, labels and identity-number rules of the patient contract (`patient.ts`), without its zod schemas: the web
 * imports them from here, so a page that shows a status does not load zod. `patient.ts` re-exports them.
 */
export const PATIENT_STATUSES = ['screening', 'enrolled', 'withdrawn', 'completed', 'deceased'] as const;
export type PatientStatus = (typeof PATIENT_STATUSES)[number];
export const PATIENT_STATUS_LABELS: Readonly<Record<PatientStatus, string>> = {
  screening: '筛选中',
  enrolled: '已入组',
  withdrawn: '已退出',
  completed: '已完成',
  deceased: '已死亡',
};

/** GB/T 2261.1-2003 sex codes. */
export const PATIENT_GENDERS = ['0', '1', '2', '9'] as const;
export type PatientGender = (typeof PATIENT_GENDERS)[number];
export const PATIENT_GENDER_LABELS: Readonly<Record<PatientGender, string>> = {
  '0': '未知的性别',
  '1': '男',
  '2': '女',
  '9': '未说明的性别',
};

/** GB 11643-1999 identity number: 17 digits and a check character (0-9 or X), with a valid checksum. */
export function isValidIdNumber(value: string): boolean {
  const v = value.replace(/\s+/g, '').toUpperCase();
  if (!/^\d{17}[\dX]$/.test(v)) return false;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(v[i]) * (weights[i] ?? 0);
  return '10X98765432'[sum % 11] === v[17];
}

/** The birth date (YYYY-MM-DD) and GB/T 2261.1 sex code ('1' odd, '2' even) an identity number encodes. */
export function idNumberFacts(value: string): { birthDate: string; gender: '1' | '2' } | null {
  const v = value.replace(/\s+/g, '').toUpperCase();
  if (!isValidIdNumber(v)) return null;
  const birthDate = `${v.slice(6, 10)}-${v.slice(10, 12)}-${v.slice(12, 14)}`;
  const d = new Date(`${birthDate}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== birthDate) return null;
  return { birthDate, gender: Number(v[16]) % 2 === 1 ? '1' : '2' };
}

export const FIELD_FILTER_OPS = ['eq', 'contains', 'gte', 'lte', 'empty', 'notEmpty'] as const;
export type FieldFilterOp = (typeof FIELD_FILTER_OPS)[number];

export const PATIENT_SORT_FIELDS = [
  'patientNo',
  'enrolDate',
  'createdAt',
  'updatedAt',
  'status',
  'hospitalNo',
] as const;
