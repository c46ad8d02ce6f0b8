import { z } from 'zod';
import { clinicalDate, dateString, int4 } from './fields';
import { HOSPITAL_NO, MOBILE_PHONE } from '../rules';
import { page, pageRequest } from './envelope';
import { PATIENT_FOLLOWUP_STATUSES } from './followup';
import {
  PATIENT_STATUSES,
  PATIENT_GENDERS,
  isValidIdNumber,
  FIELD_FILTER_OPS,
  PATIENT_SORT_FIELDS,
} from './patient-codes';

// the codes live without zod (the web's list and record pages import them from there); the contract re-exports them
export * from './patient-codes';

/**
 * Patients of the current project (`/patient/list`, `/patient/add`, `/patient/edit`). Base `patient-info`.
 *
 * Scope: the acting tenant, the current project (a sub-project sees only its own cohort, the parent sees all) and the
 * center rule (a center-scoped member sees only their center's patients). Ids outside the scope answer 404 exactly
 * like missing ids. Without `patient.pii` name, identity number and phone are masked (`张*`, `1101**********1234`,
 * `138****0001`); a response with unmasked identity data writes the audit event `patient.pii_read`. Responses carry
 * `Cache-Control: no-store`.
 *
 * `patientNo` is `<center code>-<project sequence>` (`C01-0007`), assigned by the server, unique in the project and
 * never reused (also after a delete).
 */

const nameField = z.string().trim().min(1, '请输入患者姓名').max(50, '患者姓名不能超过50个字符');
const hospitalNoField = z
  .string()
  .trim()
  .min(1, '请输入住院号')
  .max(HOSPITAL_NO.max.max, HOSPITAL_NO.max.message)
  .regex(HOSPITAL_NO.format.pattern, HOSPITAL_NO.format.message);
const idNumberField = z
  .string()
  .trim()
  .max(40, '身份证号格式不正确')
  .transform((s) => s.replace(/\s+/g, '').toUpperCase())
  .refine(isValidIdNumber, '身份证号格式不正确或校验位错误');
const phoneField = z
  .string()
  .trim()
  .max(20, '手机号格式不正确')
  .transform((s) => s.replace(/[\s-]+/g, ''))
  .refine((s) => MOBILE_PHONE.pattern.test(s), MOBILE_PHONE.message);
const genderField = z.enum(PATIENT_GENDERS, '请选择性别');
const statusField = z.enum(PATIENT_STATUSES, '请选择患者状态');

export const patientVO = z.object({
  id: z.string(),
  patientNo: z.string(),
  /** Masked (`张*`) without `patient.pii`. */
  name: z.string(),
  gender: z.enum(PATIENT_GENDERS).nullable(),
  birthDate: z.string().nullable(),
  hospitalNo: z.string().nullable(),
  /** Masked (`1101**********1234`) without `patient.pii`. */
  idNumber: z.string().nullable(),
  /** Masked (`138****0001`) without `patient.pii`. */
  phone: z.string().nullable(),
  /** True when name, identity number and phone are masked. */
  masked: z.boolean(),
  centerId: z.string(),
  centerCode: z.string(),
  centerName: z.string(),
  subProjectId: z.string().nullable(),
  enrolDate: z.string().nullable(),
  status: z.enum(PATIENT_STATUSES),
  rowVersion: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PatientVO = z.infer<typeof patientVO>;

/**
 * A row of the patient list: the patient plus the values of the list-flagged CRF fields (`listColumn`), keyed by field
 * key, from the first instance of their form (a PHI field's value is null without `patient.pii`).
 */
export const patientListItem = patientVO.extend({
  fields: z.record(z.string(), z.unknown()),
});
export type PatientListItem = z.infer<typeof patientListItem>;

/** A filter on a list-flagged CRF field: `eq` (a choice's code, a number, a date), `contains` (text), ranges. */
export const fieldFilter = z.object({
  fieldKey: z.string().min(1, '请选择字段').max(64, '字段不存在'),
  op: z.enum(FIELD_FILTER_OPS, '筛选条件不正确'),
  value: z.union([z.string().max(200, '筛选值过长'), z.number()]).optional(),
});
export type FieldFilter = z.infer<typeof fieldFilter>;

/**
 * `POST patient-info/page` (`patient.list`). `keyword` matches patient number and (with `patient.pii`) hospital number and
 * name; `idNumber` is an exact search through the blind index and needs `patient.pii` (else 403).
 */
export const patientPageRequest = pageRequest.extend({
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').optional(),
  hospitalNo: z.string().trim().max(32, '住院号不能超过32个字符').optional(),
  /** Exact match through the blind index. */
  idNumber: z.string().trim().max(40, '身份证号格式不正确').optional(),
  centerId: z.guid('请选择中心').optional(),
  status: statusField.optional(),
  enrolDateFrom: dateString('入组日期格式不正确').optional(),
  enrolDateTo: dateString('入组日期格式不正确').optional(),
  /** A fixed sort field, or `field:<fieldKey>` for a list-flagged CRF field. */
  sortField: z
    .union([z.enum(PATIENT_SORT_FIELDS), z.string().regex(/^field:[a-z][a-z0-9_]{0,63}$/)], '排序字段不正确')
    .optional(),
  sortOrder: z.enum(['asc', 'desc'], '排序方向不正确').optional(),
  /** Filters on list-flagged CRF fields (400 naming the field when it is not one). */
  fieldFilters: z.array(fieldFilter).max(10, '最多10个字段筛选条件').optional(),
  /**
   * The `nextCursor` of page `current − 1` with the same filters and sort: the page continues right after that page's
   * last row (keyset paging, as fast on page 2,000 as on page 1) instead of skipping (current − 1) × size rows. A cursor
   * of another list (other filters or sort) is ignored; without one, `current`/`size` paging works as always.
   */
  cursor: z.string().max(200, '分页游标无效').optional(),
  /** Follow-up status, see `PATIENT_FOLLOWUP_STATUSES`. */
  followupStatus: z.enum(PATIENT_FOLLOWUP_STATUSES, '随访状态不正确').optional(),
});
export type PatientPageRequest = z.input<typeof patientPageRequest>;
export const patientPageResponse = page(patientListItem).extend({
  /**
   * False when more than 10,000 patients match: `total` is then PostgreSQL's estimate (show it as 约 N 条), since an
   * exact count of hundreds of thousands of rows would slow every page.
   */
  totalExact: z.boolean(),
  /** Send back as `cursor` with `current + 1` for the next page; null on the last page or a CRF-field sort. */
  nextCursor: z.string().nullable(),
});
export type PatientPageResponse = z.infer<typeof patientPageResponse>;

export const patientIdParams = z.object({ id: z.string().max(64, '患者不存在') });

/**
 * `POST patient-info` (`patient.add`). The center must be an open center of the project within the member's scope
 * (a center-scoped member's own center is used when omitted). Identity number, birth date and gender must agree.
 * 409 when the identity number or hospital number is already used in the project (naming the existing patient number).
 */
export const patientCreateRequest = z.object({
  name: nameField,
  gender: genderField.optional(),
  birthDate: clinicalDate('出生日期格式不正确').optional(),
  hospitalNo: hospitalNoField.optional(),
  idNumber: idNumberField.optional(),
  phone: phoneField.optional(),
  centerId: z.guid('请选择中心').optional(),
  enrolDate: clinicalDate('入组日期格式不正确').optional(),
  status: statusField.optional(),
});
export type PatientCreateRequest = z.input<typeof patientCreateRequest>;

/**
 * Each identity attribute's check exactly as 新增患者 applies it (a CRF field bound to the attribute, `forms/binding.ts`,
 * is checked with the same schema: identity number checksum, phone, hospital number, …).
 */
export const PATIENT_ATTRIBUTE_SCHEMAS = {
  name: nameField,
  gender: genderField,
  birthDate: clinicalDate('出生日期格式不正确'),
  hospitalNo: hospitalNoField,
  idNumber: idNumberField,
  phone: phoneField,
} as const;

/**
 * `PUT patient-info` (`patient.edit`): the fields sent change (null clears an optional one). `rowVersion` is the version
 * the edit started from: 409 '患者信息已被他人修改，请刷新后重试' when someone saved in between.
 */
export const patientUpdateRequest = z.object({
  id: z.guid('患者不存在'),
  rowVersion: int4({ min: 1, message: '请提供数据版本' }),
  name: nameField.optional(),
  gender: genderField.nullable().optional(),
  birthDate: clinicalDate('出生日期格式不正确').nullable().optional(),
  hospitalNo: hospitalNoField.nullable().optional(),
  idNumber: idNumberField.nullable().optional(),
  phone: phoneField.nullable().optional(),
  centerId: z.guid('请选择中心').optional(),
  enrolDate: clinicalDate('入组日期格式不正确').nullable().optional(),
  status: statusField.optional(),
});
export type PatientUpdateRequest = z.input<typeof patientUpdateRequest>;

/**
 * `DELETE patient-info?ids=a,b` with the body `{ reason }` (`patient.delete`): soft delete, the reason is required. The
 * reason travels in the body so it stays out of URLs (proxy and server logs); `?reason=` is still read when the body
 * has none, since the customer spec fixes this call's input as a query (the request log never shows query values).
 */
export const patientDeleteQuery = z.object({
  ids: z
    .string()
    .max(200 * 37, '一次最多删除200名患者')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
    )
    .pipe(z.array(z.guid('患者不存在')).min(1, '请选择要删除的患者').max(200, '一次最多删除200名患者')),
  reason: z.string().trim().max(500, '删除原因不能超过500个字符').optional(),
});
export const patientDeleteBody = z.object({
  reason: z.string().trim().max(500, '删除原因不能超过500个字符').optional(),
});
export const patientDeleteResponse = z.object({ deleted: z.number().int() });
