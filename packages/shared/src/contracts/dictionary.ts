import { z } from 'zod';
import { int4, queryInt4 } from './fields';
import { pageRequest, page } from './envelope';
import { DICT_CODE, DICT_OPTION_CODE } from '../rules';

/**
 * Shared option lists that dictionary-choice fields draw from. Built-in lists (gender, ethnicity, blood type, units,
 * ICD-10 diagnoses, ...) belong to the system and are read-only; a tenant adds its own lists. Base `sys-field-dict`
 * (the lists) and `sys-field-dict-option` (their options).
 */
const dictCode = z
  .string()
  .trim()
  .min(1, '请输入字典编码')
  .max(DICT_CODE.max.max, DICT_CODE.max.message)
  .regex(DICT_CODE.format.pattern, DICT_CODE.format.message);
const dictName = z.string().trim().min(1, '请输入字典名称').max(100, '字典名称不能超过100个字符');
/** Option codes: letters, digits and `_ . - + * /` (`DICT_OPTION_CODE` in rules.ts). */
const optionCode = z
  .string()
  .trim()
  .min(1, '请输入选项编码')
  .max(DICT_OPTION_CODE.max.max, DICT_OPTION_CODE.max.message)
  .regex(DICT_OPTION_CODE.format.pattern, DICT_OPTION_CODE.format.message);
const optionLabel = z.string().trim().min(1, '请输入选项名称').max(200, '选项名称不能超过200个字符');

export const dictVO = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** System list, read-only for tenants. */
  builtIn: z.boolean(),
  /** Where the built-in list comes from (`GB/T 2261.1-2003`, package name and version). */
  source: z.string().nullable(),
  optionCount: z.number().int(),
});
export type DictVO = z.infer<typeof dictVO>;

/** `GET sys-field-dict/list` (signed in): the built-in lists and the tenant's own. */
export const dictListResponse = z.array(dictVO);

/** `POST sys-field-dict` (`database.config`): 409 '字典编码已存在'. */
export const dictCreateRequest = z.object({
  code: dictCode,
  name: dictName,
  description: z.string().trim().max(500, '字典说明不能超过500个字符').optional(),
});
/** `PUT sys-field-dict` (`database.config`, own lists only). */
export const dictUpdateRequest = z.object({
  id: z.guid('字典不存在'),
  name: dictName.optional(),
  description: z.string().trim().max(500, '字典说明不能超过500个字符').nullable().optional(),
});
/** `DELETE sys-field-dict?id=` (`database.config`, own lists only): 409 '字典正在被表单使用' when a draft or version uses it. */
export const dictIdQuery = z.object({ id: z.guid('字典不存在') });

export const dictOptionVO = z.object({
  id: z.string(),
  dictCode: z.string(),
  dictName: z.string(),
  code: z.string(),
  label: z.string(),
  /** Hierarchical lists (ICD-10 chapters → blocks → codes): the parent option's code. */
  parentCode: z.string().nullable(),
  sort: z.number().int(),
  enabled: z.boolean(),
  builtIn: z.boolean(),
});
export type DictOptionVO = z.infer<typeof dictOptionVO>;

/**
 * `POST sys-field-dict-option/page` (signed in): options of one list (or all visible lists), filtered by a keyword
 * matching code, label or the label's pinyin (`I50`, `心力衰竭`, initials `xlsj` or syllables `xinli`); with a keyword
 * the exact code comes first, then codes, labels and initials starting with it, then the rest by sort and code.
 * `codes` fetches given codes (to label values).
 */
export const dictOptionPageRequest = pageRequest.extend({
  dictCode: z.string().trim().max(64).optional(),
  keyword: z.string().trim().max(100, '关键字不能超过100个字符').optional(),
  codes: z.array(z.string().max(64)).max(200).optional(),
  enabledOnly: z.boolean().optional(),
});
export type DictOptionPageRequest = z.infer<typeof dictOptionPageRequest>;
export const dictOptionPageResponse = page(dictOptionVO);

/** `POST sys-field-dict-option` (`database.config`, own lists): 409 '选项编码已存在'. */
export const dictOptionCreateRequest = z.object({
  dictId: z.guid('字典不存在'),
  code: optionCode,
  label: optionLabel,
  parentCode: optionCode.nullable().optional(),
  sort: int4({ max: 1_000_000 }).optional(),
});
/** `PUT sys-field-dict-option` (`database.config`, own lists). Codes are stable: only label, sort, enabled change. */
export const dictOptionUpdateRequest = z.object({
  id: z.guid('选项不存在'),
  label: optionLabel.optional(),
  sort: int4({ max: 1_000_000 }).optional(),
  enabled: z.boolean().optional(),
});
/** `DELETE sys-field-dict-option?id=` (`database.config`, own lists). */
export const dictOptionIdQuery = z.object({ id: z.guid('选项不存在') });

export const AREA_LEVELS = [1, 2, 3] as const;
export const AREA_LEVEL_LABELS: Record<number, string> = { 1: '省级', 2: '地级', 3: '县级' };

export const areaVO = z.object({
  code: z.string(),
  name: z.string(),
  parentCode: z.string().nullable(),
  level: z.number().int(),
  /** `广东省 广州市 天河区` */
  fullName: z.string(),
  hasChildren: z.boolean(),
});
export type AreaVO = z.infer<typeof areaVO>;

/**
 * `POST sys-area/page` (signed in): China's administrative divisions (GB/T 2260 codes). `parentCode` lists children
 * (none = provinces when no keyword), `keyword` matches names at any level, `codes` fetches given codes.
 */
export const areaPageRequest = pageRequest.extend({
  parentCode: z.string().trim().max(12).optional(),
  level: queryInt4({ min: 1, max: 3, message: '层级应为1到3' }).optional(),
  keyword: z.string().trim().max(50, '关键字不能超过50个字符').optional(),
  codes: z.array(z.string().max(12)).max(200).optional(),
});
export type AreaPageRequest = z.infer<typeof areaPageRequest>;
export const areaPageResponse = page(areaVO);

/** Most data rows one import file may hold (a full 国家临床版 diagnosis list has about 40,000). */
export const DICT_IMPORT_MAX_ROWS = 100_000;

/**
 * Columns of a code-list import file (.xlsx, first sheet, or .csv), found by their header in the first non-empty row:
 * the code and the name are required, the others optional. Several spellings are accepted for each.
 */
export const DICT_IMPORT_HEADERS = {
  code: ['编码', '代码', '编号', '诊断编码', '疾病编码', '疾病代码', '诊断代码', 'code'],
  label: ['名称', '诊断名称', '疾病名称', '标签', 'name', 'label'],
  parentCode: ['上级编码', '父级编码', '上级代码', 'parent', 'parent_code', 'parentcode'],
  sort: ['排序', '序号', 'sort'],
  enabled: ['启用', '是否启用', 'enabled'],
} as const;
export type DictImportColumn = keyof typeof DICT_IMPORT_HEADERS;

/** `dictId` of the own list to fill, and whether options missing from the file are disabled (never deleted). */
export const dictImportQuery = z.object({
  dictId: z.guid('字典不存在'),
  disableMissing: z
    .enum(['true', 'false'], { error: 'disableMissing 只能为 true 或 false' })
    .optional()
    .transform((v) => v === 'true'),
});
export type DictImportQuery = z.input<typeof dictImportQuery>;

export const dictImportError = z.object({
  /** The row as the spreadsheet or text editor numbers it (the header row included). */
  row: z.number().int(),
  /** The column's header as written in the file, or null for a problem of the whole row or file. */
  column: z.string().nullable(),
  value: z.string().nullable(),
  message: z.string(),
});
export type DictImportError = z.infer<typeof dictImportError>;

/**
 * `POST sys-field-dict/import/dry-run?dictId=&disableMissing=` and `.../commit` (`database.config`, own lists,
 * multipart `file`): the dry run reads and checks every row and writes nothing; the commit writes every change in one
 * transaction with one audit event, or nothing (400 with the errors as `issues`, path `第N行 列名`). Options are
 * matched by code: new codes are added, existing ones take the file's name, parent and order (and are enabled);
 * with `disableMissing` the list's options that the file does not name are disabled.
 */
export const dictImportReport = z.object({
  fileName: z.string(),
  /** `UTF-8`, `GB18030` … for a CSV file; null for .xlsx. */
  encoding: z.string().nullable(),
  rowCount: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  disabled: z.number().int(),
  /** The first 500 problems; `errorCount` says how many there are in all. */
  errors: z.array(dictImportError),
  errorCount: z.number().int(),
  ok: z.boolean(),
});
export type DictImportReport = z.infer<typeof dictImportReport>;
