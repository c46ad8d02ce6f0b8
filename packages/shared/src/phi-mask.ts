/**
 * THE masking policy of personal health information: how every identity value of a patient is shown to a
 * caller without `patient.pii` — patient list and detail, follow-up worklist, record page and export, timeline, import
 * report and the audit trail (which only ever stores the masked form). CRF values of fields flagged `phi` are
 * withheld entirely (null, listed in `maskedPaths`), since their shape is free.
 */

/** Common two-character (compound) surnames kept visible by `maskName` (`欧阳**`). */
const COMPOUND_SURNAMES = new Set(
  (
    '欧阳 太史 端木 上官 司马 东方 独孤 南宫 万俟 闻人 夏侯 诸葛 尉迟 公羊 赫连 澹台 皇甫 宗政 濮阳 公冶 太叔 申屠 ' +
    '公孙 慕容 仲孙 钟离 长孙 宇文 司徒 鲜于 司空 闾丘 子车 亓官 司寇 巫马 公西 颛孙 壤驷 公良 漆雕 乐正 宰父 ' +
    '谷梁 拓跋 夹谷 轩辕 令狐 段干 百里 呼延 东郭 南门 羊舌 微生 梁丘 左丘 西门 第五 即墨 达奚 褚师'
  ).split(' '),
);

/** `张三` → `张*`, `欧阳娜娜` → `欧阳**`, a one-character name → `*`. */
export function maskName(name: string): string {
  const chars = [...name];
  if (chars.length <= 1) return '*';
  const keep = chars.length > 2 && COMPOUND_SURNAMES.has(chars.slice(0, 2).join('')) ? 2 : 1;
  return chars.slice(0, keep).join('') + '*'.repeat(chars.length - keep);
}

/** `110101199003071234` → `1101**********1234`. */
export function maskIdNumber(value: string): string {
  if (value.length <= 8) return '*'.repeat(value.length);
  return value.slice(0, 4) + '*'.repeat(value.length - 8) + value.slice(-4);
}

/** `13800000001` → `138****0001`. */
export function maskPhone(value: string): string {
  if (value.length <= 7) return '*'.repeat(value.length);
  return value.slice(0, 3) + '*'.repeat(value.length - 7) + value.slice(-4);
}

/** `1990-03-07` → `1990-**-**`: the year only (enough for an age group, not for identifying). */
export function maskBirthDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? `${value.slice(0, 4)}-**-**` : '*'.repeat(value.length);
}

/** `ZY20260001` → `********01`: the last two characters only. */
export function maskHospitalNo(value: string): string {
  const chars = [...value];
  if (chars.length <= 4) return '*'.repeat(chars.length);
  return '*'.repeat(chars.length - 2) + chars.slice(-2).join('');
}

/** The patient's identity fields and their masks. */
export const PATIENT_PHI_MASKS = {
  name: maskName,
  idNumber: maskIdNumber,
  phone: maskPhone,
  birthDate: maskBirthDate,
  hospitalNo: maskHospitalNo,
} as const satisfies Record<string, (value: string) => string>;
export type PatientPhiField = keyof typeof PATIENT_PHI_MASKS;

/** A patient field's value as a caller sees it: in clear with `pii`, masked without (other fields unchanged). */
export function showPatientValue<V extends string | null>(field: string, value: V, pii: boolean): V {
  if (pii || value === null) return value;
  const mask = (PATIENT_PHI_MASKS as Record<string, ((v: string) => string) | undefined>)[field];
  return (mask ? mask(value) : value) as V;
}

/** Whether a shown value is a mask (the web keeps such a value out of a form it sends back). */
export const isMaskedValue = (value: string | null | undefined): boolean =>
  typeof value === 'string' && value.includes('*');
