import {
  DICT_IMPORT_HEADERS,
  type DictImportColumn,
  type DictImportError,
} from '@registry/shared/contracts/dictionary';
import { DICT_OPTION_CODE } from '@registry/shared/rules';
import type { FileRow } from './dict-import-file';

export const DICT_IMPORT_MESSAGES = {
  empty: '文件中没有数据行',
  missingColumn: (what: string, names: readonly string[]) => `缺少“${what}”列（表头可写作：${names.join('、')}）`,
  repeatedColumn: (header: string) => `“${header}”列重复`,
  codeRequired: '编码不能为空',
  codeTooLong: '编码不能超过64个字符',
  labelRequired: '名称不能为空',
  labelTooLong: '名称不能超过200个字符',
  duplicateCode: (row: number) => `编码与第 ${row} 行重复`,
  parentSelf: '上级编码不能是自己',
  parentNotFound: (code: string) => `上级编码 ${code} 既不在文件中，也不在该字典中`,
  badSort: '排序须为 0 到 1000000 之间的整数',
  badEnabled: '启用须填写 是/否（或 1/0）',
} as const;
const M = DICT_IMPORT_MESSAGES;

const COLUMN_NAMES: Record<DictImportColumn, string> = {
  code: '编码',
  label: '名称',
  parentCode: '上级编码',
  sort: '排序',
  enabled: '启用',
};

/** An option of the list as it is before the import. */
export type ExistingOption = {
  id: string;
  code: string;
  label: string;
  parentCode: string | null;
  sort: number;
  enabled: boolean;
};

/** An option as the file wants it. */
export type WantedOption = { code: string; label: string; parentCode: string | null; sort: number; enabled: boolean };

export type DictImportPlan = {
  rowCount: number;
  create: WantedOption[];
  update: (WantedOption & { id: string })[];
  unchanged: number;
  /** Ids of enabled options the file does not name (only with `disableMissing`). */
  disable: string[];
  errors: DictImportError[];
};

const normalise = (header: string) =>
  header
    .replace(/^\uFEFF/, '')
    .replace(/[\s*＊]/g, '')
    .toLowerCase();

const ENABLED_WORDS = new Map<string, boolean>([
  ['是', true],
  ['启用', true],
  ['1', true],
  ['true', true],
  ['y', true],
  ['yes', true],
  ['否', false],
  ['停用', false],
  ['0', false],
  ['false', false],
  ['n', false],
  ['no', false],
]);

/**
 * What importing the file's rows into a list would change, and every problem with its row. The first row holds the
 * headers; options are matched by code; the file's order is the options' order unless it has a 排序 column.
 */
export function planDictImport(
  rows: readonly FileRow[],
  existing: readonly ExistingOption[],
  opts: { disableMissing: boolean },
): DictImportPlan {
  const plan: DictImportPlan = { rowCount: 0, create: [], update: [], unchanged: 0, disable: [], errors: [] };
  const [header, ...data] = rows;
  if (!header || data.length === 0) {
    plan.errors.push({ row: header?.row ?? 1, column: null, value: null, message: M.empty });
    return plan;
  }

  const columns = new Map<DictImportColumn, number>();
  header.cells.forEach((cell, index) => {
    const name = normalise(cell);
    for (const [column, names] of Object.entries(DICT_IMPORT_HEADERS) as [DictImportColumn, readonly string[]][]) {
      if (!names.some((n) => normalise(n) === name)) continue;
      if (columns.has(column))
        plan.errors.push({ row: header.row, column: cell, value: cell, message: M.repeatedColumn(cell) });
      else columns.set(column, index);
    }
  });
  for (const required of ['code', 'label'] as const)
    if (!columns.has(required))
      plan.errors.push({
        row: header.row,
        column: null,
        value: null,
        message: M.missingColumn(COLUMN_NAMES[required], DICT_IMPORT_HEADERS[required]),
      });
  if (plan.errors.length > 0) return plan;

  const headerOf = (column: DictImportColumn) => header.cells[columns.get(column) ?? -1] ?? COLUMN_NAMES[column];
  const cell = (row: FileRow, column: DictImportColumn) => {
    const index = columns.get(column);
    return index === undefined ? '' : (row.cells[index] ?? '');
  };
  const byCode = new Map(existing.map((o) => [o.code, o]));
  const firstRow = new Map<string, number>();
  const wanted: { row: FileRow; option: WantedOption }[] = [];

  data.forEach((row, index) => {
    const error = (column: DictImportColumn | null, value: string | null, message: string) =>
      plan.errors.push({ row: row.row, column: column ? headerOf(column) : null, value, message });
    const before = plan.errors.length;
    const code = cell(row, 'code');
    const label = cell(row, 'label');
    if (code === '') error('code', null, M.codeRequired);
    else if (code.length > DICT_OPTION_CODE.max.max) error('code', code, M.codeTooLong);
    else if (!DICT_OPTION_CODE.format.pattern.test(code)) error('code', code, DICT_OPTION_CODE.format.message);
    else if (firstRow.has(code)) error('code', code, M.duplicateCode(firstRow.get(code) ?? 0));
    else firstRow.set(code, row.row);
    if (label === '') error('label', null, M.labelRequired);
    else if (label.length > 200) error('label', label, M.labelTooLong);

    const sortText = cell(row, 'sort');
    let sort = index;
    if (sortText !== '') {
      sort = Number(sortText);
      if (!/^\d{1,7}$/.test(sortText) || sort > 1_000_000) error('sort', sortText, M.badSort);
    }
    const enabledText = cell(row, 'enabled');
    const enabled = enabledText === '' ? true : ENABLED_WORDS.get(enabledText.toLowerCase());
    if (enabled === undefined) error('enabled', enabledText, M.badEnabled);
    const parentCode = cell(row, 'parentCode') || null;
    if (plan.errors.length === before)
      wanted.push({ row, option: { code, label, parentCode, sort, enabled: enabled ?? true } });
  });

  const inFile = new Set(firstRow.keys());
  for (const { row, option } of wanted) {
    if (option.parentCode === null) continue;
    if (option.parentCode === option.code)
      plan.errors.push({
        row: row.row,
        column: headerOf('parentCode'),
        value: option.parentCode,
        message: M.parentSelf,
      });
    else if (!inFile.has(option.parentCode) && !byCode.has(option.parentCode))
      plan.errors.push({
        row: row.row,
        column: headerOf('parentCode'),
        value: option.parentCode,
        message: M.parentNotFound(option.parentCode),
      });
  }

  plan.rowCount = data.length;
  plan.errors.sort((a, b) => a.row - b.row);
  if (plan.errors.length > 0) return plan;
  for (const { option } of wanted) {
    const before = byCode.get(option.code);
    if (!before) plan.create.push(option);
    else if (
      before.label !== option.label ||
      before.parentCode !== option.parentCode ||
      before.sort !== option.sort ||
      before.enabled !== option.enabled
    )
      plan.update.push({ ...option, id: before.id });
    else plan.unchanged += 1;
  }
  if (opts.disableMissing) for (const o of existing) if (o.enabled && !inFile.has(o.code)) plan.disable.push(o.id);
  return plan;
}
