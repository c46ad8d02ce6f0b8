import type { PatientGender, PatientVO } from '@registry/shared/contracts/patient';
import { decryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import type { PatientRow } from './patient.repository';

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

/** A patient as the web sees it: identity data decrypted, then masked unless `pii`. */
export function presentPatient(row: PatientRow, keys: PhiKeys, pii: boolean): PatientVO {
  const idNumber = row.idNumberEnc ? decryptPhi(keys, row.idNumberEnc) : null;
  const phone = row.phoneEnc ? decryptPhi(keys, row.phoneEnc) : null;
  return {
    id: row.id,
    patientNo: row.patientNo,
    name: pii ? row.name : maskName(row.name),
    gender: (row.gender as PatientGender | null) ?? null,
    birthDate: row.birthDate,
    hospitalNo: row.hospitalNo,
    idNumber: idNumber === null ? null : pii ? idNumber : maskIdNumber(idNumber),
    phone: phone === null ? null : pii ? phone : maskPhone(phone),
    masked: !pii,
    centerId: row.centerId,
    centerCode: row.centerCode,
    centerName: row.centerName,
    subProjectId: row.subProjectId,
    enrolDate: row.enrolDate,
    status: row.status,
    rowVersion: row.rowVersion,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
