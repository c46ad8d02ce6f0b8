import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { ExportSink } from './export-sink';
import type { ExportRows, ExportTable, ExportValue, ExportWriteResult } from './export-table';

/**
 * The CSV writer (csv-stringify, the stringifier of the csv-parse the import already reads with): RFC 4180 — fields
 * with a comma, a quote or a line break in double quotes, quotes doubled, records ended by CRLF —, UTF-8 with a BOM so
 * that Excel opens Chinese text as UTF-8. Null is an empty field (RFC 4180 has no null; an empty string reads back the
 * same).
 *
 * Formula injection (OWASP "CSV Injection"): a text cell starting with `=`, `+`, `-`, `@`, tab or carriage return (and
 * their full-width forms, which Excel's input methods turn into the same) gets a `'` before it, so a spreadsheet shows
 * it as text instead of running it. Not guarded: numbers (JS numbers, such as a negative value) and a text that is a
 * plain decimal literal such as `-1` or `+86` (a spreadsheet reads those as numbers, not formulas; prefixing them would
 * change codes like `-1`). Any other text is guarded whatever the variable's type, so a stray text in a number column
 * cannot slip through. The guard is on by default; the data files of the statistics packages turn it off, since those
 * read the file as data and the quote would become part of the value.
 */

/** What the guard looks at: OWASP's list, plus the full-width `＝＋－＠` (as csv-stringify's own escape_formulas). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const DECIMAL_LITERAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The text as a spreadsheet must show it: `'` before a text that would otherwise start a formula. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) && !DECIMAL_LITERAL.test(text) ? `'${text}` : text;
}

export type CsvOptions = {
  /**
   * The first row: variable names (the default, as REDCap's raw export: a file that reads back by name), labels, given
   * names (the safe names of a statistics package), or none.
   */
  header?: 'names' | 'labels' | readonly string[] | false;
  /** The formula-injection guard (see above); default on. */
  formulaGuard?: boolean;
  /**
   * Line breaks inside text become a space: for the data files of SPSS and Stata, which cannot read a quoted line break
   * (REDCap does the same in its statistics-package exports). Default off: the CSV keeps them, quoted.
   */
  flattenLineBreaks?: boolean;
  /** The UTF-8 byte order mark; default on. */
  bom?: boolean;
};

/** Writes the table as CSV into `out` (ended at the end), honouring backpressure; one row in memory at a time. */
export async function writeCsv(
  table: ExportTable,
  rows: ExportRows,
  out: Writable,
  options: CsvOptions = {},
): Promise<ExportWriteResult> {
  const guard = options.formulaGuard ?? true;
  const flatten = options.flattenLineBreaks ?? false;
  const csv = stringify({
    bom: options.bom ?? true,
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    cast: {
      string: (value) => {
        const text = flatten ? value.replace(/\r\n|[\r\n]/g, ' ') : value;
        return guard ? guardFormula(text) : text;
      },
      // NaN and ±Infinity have no CSV form that every reader takes: missing.
      number: (value) => (Number.isFinite(value) ? String(value) : ''),
    },
  });
  const sink = new ExportSink(out);
  const piped = pipeline(csv, sink.stream);
  piped.catch(() => undefined);
  const put = async (record: readonly ExportValue[]) => {
    if (!csv.write(record)) await Promise.race([once(csv, 'drain'), piped]);
  };
  let count = 0;
  try {
    const header = options.header ?? 'names';
    if (header === 'names') await put(table.variables.map((v) => v.name));
    else if (header === 'labels') await put(table.variables.map((v) => v.label));
    else if (header) await put(header);
    for await (const row of rows) {
      await put(row);
      count++;
    }
    csv.end();
    await piped;
  } catch (error) {
    csv.destroy();
    return sink.fail(error);
  }
  return sink.finish(count, true);
}
