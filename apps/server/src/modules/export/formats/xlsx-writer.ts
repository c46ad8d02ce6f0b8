import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { ExportSink } from './export-sink';
import type { ExportRows, ExportTable, ExportValue, ExportVariable, ExportWriteResult } from './export-table';

/**
 * The XLSX writer: exceljs's streaming WorkbookWriter, one committed row at a time (no shared strings, so nothing
 * grows with the data). One sheet per table, named after it; the first row holds the variable names by default, as
 * REDCap's exports do (a sheet that reads back by name), or the labels. Cells are typed: numbers as numbers, dates and
 * date-times as Excel dates (`yyyy-mm-dd`, `yyyy-mm-dd hh:mm:ss`, the wall-clock time as written), text as text — a text
 * is never a formula in a typed cell, so no formula guard is needed here.
 *
 * Backpressure: exceljs's sheet buffer writes into its zip without waiting (it ignores `write`'s return), so the writer
 * waits itself: every ROWS_PER_TURN rows it yields to the event loop and then waits while the sink still needs a drain.
 * A slow consumer thus holds back the rows, and what sits in between is bounded by the streams' buffers.
 *
 * Excel's limits (Excel specifications and limits): 1,048,576 rows per sheet — further rows continue on sheets
 * `<name>_2`, `<name>_3`, … with the same header —, 32,767 characters per cell — a longer text is cut (with `…`).
 * Characters XML 1.0 cannot hold (control characters) are dropped; a line break is `\n` (Excel's own, and what an XML
 * reader makes of a written CRLF anyway).
 */

const ROWS_PER_TURN = 64;
export const XLSX_MAX_ROWS = 1_048_576;
const MAX_CELL_CHARS = 32_767;
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export type XlsxOptions = {
  /** The first row: variable names (default) or labels. */
  header?: 'names' | 'labels';
  /** The sheet's first data row on every sheet; mostly for tests of the sheet split. Default XLSX_MAX_ROWS - 1. */
  rowsPerSheet?: number;
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A cell's value: a Date (in UTC, so Excel shows the wall-clock value as written) for a parsable date. */
function cellValue(variable: ExportVariable, value: ExportValue): ExcelJS.CellValue {
  if (value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (variable.type === 'number') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : cleanText(value);
  }
  if (variable.type === 'date') {
    const m = DATE.exec(value);
    if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  } else if (variable.type === 'datetime') {
    const m = DATETIME.exec(value);
    if (m)
      return new Date(
        Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)),
      );
  }
  return cleanText(value);
}

function cleanText(text: string): string {
  const clean = text.replace(/\r\n?/g, '\n').replace(INVALID_XML, '');
  return clean.length > MAX_CELL_CHARS ? `${clean.slice(0, MAX_CELL_CHARS - 1)}…` : clean;
}

/** Excel's sheet name rules: at most 31 characters, none of `[]:*?/\`. */
const sheetName = (name: string, part: number) =>
  `${name.replace(/[[\]:*?/\\]/g, '_').slice(0, 24)}${part > 1 ? `_${part}` : ''}`;

/** Writes the table as an .xlsx workbook into `out` (ended at the end), honouring backpressure. */
export async function writeXlsx(
  table: ExportTable,
  rows: ExportRows,
  out: Writable,
  options: XlsxOptions = {},
): Promise<ExportWriteResult> {
  const sink = new ExportSink(out);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink.stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = '临床科研患者登记平台';
  const header = table.variables.map((v) => (options.header === 'labels' ? v.label : v.name));
  const columns = table.variables.map((v, i) => ({
    key: String(i),
    width: Math.min(60, Math.max(10, header[i]!.length + 2)),
    style:
      v.type === 'date'
        ? { numFmt: 'yyyy-mm-dd' }
        : v.type === 'datetime'
          ? { numFmt: 'yyyy-mm-dd hh:mm:ss' }
          : undefined,
  }));
  const perSheet = options.rowsPerSheet ?? XLSX_MAX_ROWS - 1;
  let part = 0;
  let sheet: ExcelJS.Worksheet | undefined;
  const newSheet = () => {
    sheet?.commit();
    part++;
    sheet = workbook.addWorksheet(sheetName(table.name, part), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns;
    const headerRow = sheet.addRow(header.map(cleanText));
    headerRow.font = { bold: true };
    headerRow.commit();
    return sheet;
  };
  let count = 0;
  try {
    let current = newSheet();
    for await (const row of rows) {
      if (count > 0 && count % perSheet === 0) current = newSheet();
      current.addRow(table.variables.map((v, i) => cellValue(v, row[i] ?? null))).commit();
      count++;
      if (count % ROWS_PER_TURN === 0) {
        await nextTurn();
        await sink.drained();
      }
    }
    await sink.whileOpen(workbook.commit());
  } catch (error) {
    return sink.fail(error);
  }
  return sink.finish(count, true);
}
