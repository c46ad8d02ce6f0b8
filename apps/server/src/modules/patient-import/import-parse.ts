import type { ImportCellError } from '@registry/shared/contracts/patient-import';
import { parseDemographicCell, parseFieldCell, reportText } from './import-cells';
import type { DemographicKey } from './import-columns';
import { demographicsSchema, type Demographics, type DictOptions, type ParsedRow, type Sources } from './import-plan';
import type { SheetCell, SheetRow } from './import-workbook';

/**
 * Step 1 of the analysis, cells → values: demographics checked by the patient contract, CRF cells turned into stored
 * values; every cell that fails is an error of the report.
 */
export function parseRows(
  sheetRows: SheetRow[],
  sources: Sources,
  dictOptions: DictOptions,
  errors: ImportCellError[],
): ParsedRow[] {
  const parsed: ParsedRow[] = [];
  for (const row of sheetRows) {
    const cells = new Map<string, SheetCell>();
    const rawDemo: Partial<Record<DemographicKey, unknown>> = {};
    const values = new Map<string, Record<string, unknown>>();
    let demoOk = true;
    const fail = (cell: SheetCell, field: string, message: string) =>
      errors.push({
        row: row.rowNo,
        column: cell.letter,
        header: cell.column.header,
        field,
        value: reportText(cell.column, cell.raw),
        message,
      });
    for (const cell of row.cells) {
      const { column } = cell;
      cells.set(column.sheetKey, cell);
      if (column.kind === 'demographic') {
        const result = parseDemographicCell(column.key, cell.raw);
        if (result.ok) rawDemo[column.key] = result.value;
        else {
          demoOk = false;
          fail(cell, column.key, result.message);
        }
        continue;
      }
      const accepted = new Set(sources.missingOf.get(column.form.key) ?? []);
      const result = parseFieldCell(
        column.field,
        cell.raw,
        accepted,
        dictOptions.get(column.field.dictCode ?? '') ?? [],
      );
      if (!result.ok) {
        fail(cell, column.key, result.message);
        continue;
      }
      const formValues = values.get(column.form.key) ?? {};
      formValues[column.key] = result.value;
      values.set(column.form.key, formValues);
    }
    const { patientNo, centerCode, ...contractInput } = rawDemo;
    const checked = demographicsSchema.safeParse(contractInput);
    let demo: Demographics = {};
    if (checked.success) demo = checked.data;
    else {
      demoOk = false;
      for (const issue of checked.error.issues) {
        const key = String(issue.path[0] ?? '');
        const cell = cells.get(`patient.${key}`);
        if (cell) fail(cell, key, issue.message);
      }
    }
    parsed.push({
      rowNo: row.rowNo,
      cells,
      demo,
      demoOk,
      ...(typeof patientNo === 'string' && patientNo !== '' ? { patientNo } : {}),
      ...(typeof centerCode === 'string' && centerCode !== '' ? { centerCode } : {}),
      values,
    });
  }
  return parsed;
}
