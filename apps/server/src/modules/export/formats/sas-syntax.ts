import {
  DEFAULT_STRING_BYTES,
  variableNames,
  type ExportTable,
  type ExportVariable,
  type VariableNames,
} from './export-table';
import { cutBytes, headerLines, isNumericCode, oneLine } from './syntax-text';

/**
 * The SAS program (.sas) that reads the table's data file (see stats-export.ts) in a DATA step and labels it —
 * REDCap's SAS export in shape (PROC FORMAT first, then the DATA step with INFORMAT, FORMAT, INPUT and LABEL).
 * Reference: SAS 9.4 DATA Step Statements (INFILE: DSD, FIRSTOBS, TERMSTR, ENCODING), SAS 9.4 Formats and Informats
 * (YYMMDD, ANYDTDTM, E8601DT), Base SAS Procedures (PROC FORMAT VALUE). SAS is not available here: the tests check
 * the text.
 *
 * - Run it in a UTF-8 SAS session (`sas -encoding utf8`, or SAS 9.4's Unicode server): the file is read with
 *   `encoding='utf-8'`, and Chinese text needs a UTF-8 session to keep every character. String lengths are bytes.
 * - `firstobs=2` skips the header row (and with it the BOM); `dsd` reads quoted fields with commas and treats two
 *   commas as a missing value; `termstr=crlf` matches the file on every platform.
 * - Strings are in single quotes, a `'` inside doubled: single quotes resolve no macro (`&`, `%`). Labels are on one
 *   line and cut to 256 bytes.
 * - Value labels: a number variable gets a numeric format from its numeric codes, a string variable a `$` format.
 *   Format names are the variable name (cut to 30) with `_` after it — a format name cannot end in a digit, and the
 *   `_` keeps it off SAS's own format names —, made unique.
 */

const q = (text: string) => `'${text.replace(/'/g, "''")}'`;
const comment = (text: string) => `/* ${text.replace(/\*\//g, '* /')} */`;

function informat(v: ExportVariable): string {
  switch (v.type) {
    case 'number':
      return 'best32.';
    case 'date':
      return 'yymmdd10.';
    case 'datetime':
      return 'anydtdtm19.';
    default:
      return `$char${Math.min(32_767, Math.max(1, Math.ceil(v.width ?? DEFAULT_STRING_BYTES)))}.`;
  }
}

/** Unique format names (case-insensitive) for the variables that have value labels. */
function formatNames(table: ExportTable, names: VariableNames): Map<number, string> {
  const out = new Map<number, string>();
  const taken = new Set<string>();
  table.variables.forEach((v, i) => {
    if (!v.valueLabels?.length) return;
    const base = names.names[i]!.slice(0, 30);
    let name = `${base}_`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 29 - String(n).length)}_${n}_`;
    taken.add(name.toLowerCase());
    out.set(i, name);
  });
  return out;
}

export function sasSyntax(
  table: ExportTable,
  dataFile: string,
  names: VariableNames = variableNames(table.variables, 'sas'),
): string {
  const lines = headerLines(
    `${table.label ?? table.name}（SAS 程序，请在 UTF-8 会话中运行）`,
    dataFile,
    names.renamed,
  ).map(comment);
  const name = (i: number) => names.names[i]!;
  const formats = formatNames(table, names);
  const values: string[] = [];
  table.variables.forEach((v, i) => {
    const format = formats.get(i);
    if (!format) return;
    const numeric = v.type === 'number';
    const pairs = (v.valueLabels ?? [])
      .filter((l) => !numeric || isNumericCode(l.code))
      .map((l) => `    ${numeric ? l.code : q(l.code)}=${q(cutBytes(oneLine(l.label), 32_767))}`);
    if (pairs.length === 0) {
      formats.delete(i);
      return;
    }
    values.push(`  value ${numeric ? '' : '$'}${format}`, ...pairs, '  ;');
  });
  lines.push(`filename datafile ${q(dataFile)} encoding='utf-8';`);
  if (values.length > 0) lines.push('proc format;', ...values, 'run;');
  const dataset = `work.${table.name
    .replace(/[^A-Za-z0-9_]/g, '_')
    .replace(/^(?![A-Za-z_])/, 'd')
    .slice(0, 32)}`;
  lines.push(
    `data ${dataset}${table.label ? ` (label=${q(cutBytes(oneLine(table.label), 256))})` : ''};`,
    "  infile datafile dsd dlm=',' firstobs=2 truncover lrecl=1048576 termstr=crlf;",
  );
  if (table.variables.length > 0) {
    lines.push('  informat', ...table.variables.map((v, i) => `    ${name(i)} ${informat(v)}`), '  ;');
    const displayed = table.variables.flatMap((v, i) => {
      const format = formats.get(i);
      if (format) return [`    ${name(i)} ${v.type === 'number' ? '' : '$'}${format}.`];
      if (v.type === 'number')
        return [
          `    ${name(i)} ${v.decimals === undefined ? 'best32.' : `20.${Math.min(16, Math.max(0, v.decimals))}`}`,
        ];
      if (v.type === 'date') return [`    ${name(i)} yymmdd10.`];
      if (v.type === 'datetime') return [`    ${name(i)} e8601dt19.`];
      return [];
    });
    if (displayed.length > 0) lines.push('  format', ...displayed, '  ;');
    lines.push(
      '  input',
      ...table.variables.map((v, i) => `    ${name(i)}${v.type === 'string' ? ' $' : ''}`),
      '  ;',
      '  label',
      ...table.variables.map((v, i) => `    ${name(i)}=${q(cutBytes(oneLine(v.label), 256))}`),
      '  ;',
    );
  }
  lines.push('run;', '');
  return lines.join('\n');
}
