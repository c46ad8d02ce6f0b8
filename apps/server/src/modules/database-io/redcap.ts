import {
  definitionSchema,
  DEFAULT_MISSING_CODES,
  type Definition,
  type FieldDefinition,
  type FormDefinition,
  type MissingCode,
} from '@registry/shared/forms/definition';
import { checkDefinition } from '@registry/shared/forms/check';
import type { Row } from './redcap-columns';
import { HEADER_NAMES } from './redcap-columns';
import { assignKeys, importRows } from './redcap-fields';
import { translatePendingLogic } from './redcap-logic';
import { readDictionary } from './redcap-read';
import { createReport, type RedcapImport, type RedcapReport } from './redcap-report';
import { createState } from './redcap-state';

export type { RedcapImport, RedcapImportSummary } from './redcap-report';

/**
 * A REDCap data dictionary (CSV) → a definition and a report. Every row becomes a field (or, for a row that cannot be
 * one, a note); whatever cannot be carried over exactly is listed (`changed`: carried over in another form,
 * `untranslated`: dropped), never dropped silently. All forms go into one category 「REDCap 导入」, in file order.
 * Branching logic and calculations are translated to our logic language, then parsed by the engine and their
 * references checked; one that fails keeps no logic and is listed with its row, field, column and original text.
 *
 * The steps, each in a file beside this one: redcap-read.ts (decode, parse and check the CSV, match its header:
 * redcap-columns.ts), redcap-fields.ts (keys, forms, sections, labels and help, row flags; names and choices:
 * redcap-text.ts), redcap-field-type.ts (types, validations, ranges, options), redcap-logic.ts (branching logic and
 * calculations); then here the missing-data codes and the engine's own check. The report: redcap-report.ts.
 */

export const REDCAP_CATEGORY_KEY = 'redcap';
export const REDCAP_CATEGORY_TITLE = 'REDCap 导入';

/**
 * Missing-data codes the import adds must not be option codes of the file: logic reads a missing code as blank, so a
 * selected option `NA` would read as blank. Such a missing code is renamed (`NA` → `MISSING_NA`) and listed.
 */
function missingCodesFor(optionFields: [Row, FieldDefinition, string][], report: RedcapReport): MissingCode[] {
  const note = report.note;
  const optionRows = new Map<string, { row: Row; formKey: string; fieldKey: string }[]>();
  for (const [row, field, formKey] of optionFields)
    for (const o of field.options ?? []) {
      const list = optionRows.get(o.code) ?? [];
      list.push({ row, formKey, fieldKey: field.key });
      optionRows.set(o.code, list);
    }
  return DEFAULT_MISSING_CODES.map((m) => {
    const users = optionRows.get(m.code);
    if (!users) return m;
    let renamed = `MISSING_${m.code}`;
    for (let n = 2; optionRows.has(renamed); n++) renamed = `MISSING_${m.code}_${n}`;
    for (const u of users)
      note(
        u.row,
        'changed',
        `选项编码 ${m.code} 与系统缺失值编码 ${m.code}（${m.label}）相同，为免选中该选项被当作“未填”，本库的缺失值编码改为 ${renamed}`,
        { column: 'choices', formKey: u.formKey, fieldKey: u.fieldKey, source: m.code },
      );
    return { ...m, code: renamed };
  });
}

/** Safety net: the engine's own verdict on the logic we kept (a problem → the logic is dropped and listed). */
function dropFailingLogic(definition: Definition, report: RedcapReport): void {
  const { notes, summary } = report;
  for (const problem of checkDefinition(definition)) {
    const m = /\.(showIf|formula)$/.exec(problem.path);
    const field = problem.fieldKey
      ? definition.categories[0]?.forms.flatMap((f) => f.fields).find((f) => f.key === problem.fieldKey)
      : undefined;
    if (!m || !field) continue;
    const src = m[1] === 'showIf' ? field.showIf : field.formula;
    if (m[1] === 'showIf') {
      delete field.showIf;
      summary.branchingTranslated--;
    } else {
      delete field.formula;
      field.type = 'decimal';
      summary.calcsTranslated--;
    }
    notes.push({
      row: null,
      formKey: problem.formKey,
      fieldKey: problem.fieldKey,
      column: HEADER_NAMES[m[1] === 'showIf' ? 'branching' : 'choices'],
      severity: 'untranslated',
      message: `${problem.message}，已去除`,
      source: src ?? null,
    });
  }
}

/**
 * Parses the REDCap data dictionary CSV: UTF-8 (with or without BOM), UTF-16, GBK/GB18030 or Windows-1252 (detected,
 * see lib/text-encoding.ts), separated by commas, semicolons or tabs (detected from the header line).
 */
export function redcapToDefinition(csv: Buffer | string): RedcapImport {
  const report = createReport();
  const { notes, summary, fatal } = report;
  const read = readDictionary(csv, report);
  if (!read.ok) return read.refused;

  const state = createState(report);
  assignKeys(read.rows, state);
  importRows(read.rows, state);
  const forms: FormDefinition[] = state.forms;
  if (forms.length === 0) return fatal('数据字典中没有可导入的字段');
  translatePendingLogic(state);
  const missingCodes = missingCodesFor(state.optionFields, report);

  const parsed = definitionSchema.safeParse({
    categories: [{ key: REDCAP_CATEGORY_KEY, title: REDCAP_CATEGORY_TITLE, forms }],
    missingCodes,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fatal(`导入结果不符合数据库结构：${issue ? `${issue.path.join('.')} ${issue.message}` : ''}`);
  }
  const definition = parsed.data;
  dropFailingLogic(definition, report);
  return { definition, notes, summary };
}
