import {
  DEFAULT_STRING_BYTES,
  NUMBER_DECIMALS,
  variableNames,
  type ExportTable,
  type ExportVariable,
  type VariableNames,
} from './export-table';
import { cutBytes, headerLines, isNumericCode, oneLine } from './syntax-text';

/**
 * The SPSS syntax (.sps) that reads the table's data file (see stats-export.ts: CSV, UTF-8, names in the first row)
 * and gives it variable labels, value labels and display formats — REDCap's SPSS export in shape: data plus syntax.
 * References: IBM SPSS Statistics Command Syntax Reference (GET DATA /TYPE=TXT, VARIABLE LABELS, VALUE LABELS, FORMATS)
 * and the GNU PSPP manual, which runs the same commands (the tests run the file with PSPP).
 *
 * - Strings are quoted with `"`, a `"` inside doubled; labels are put on one line and cut to SPSS's limits (variable
 *   label 255 bytes, value label 120 bytes, UTF-8).
 * - Input formats: numbers `F40` (no implied decimals: `F40.2` would read `12` as 0.12), dates `SDATE10` (reads
 *   `YYYY-MM-DD`), date-times `YMDHMS19`, strings `A<width in bytes>` (the variable's `width`, else 1500).
 * - Value labels of a number variable use the numeric codes only (a text code cannot label a number); those of a
 *   string variable are quoted.
 * - The data file's path is relative: SPSS and PSPP resolve it against the working directory (`CD` to the folder).
 */

const MAX_STRING = 32_767;
const q = (text: string) => `"${text.replace(/"/g, '""')}"`;
const comment = (text: string) => `* ${text.replace(/\.\s*$/, '')}.`;

export function stringWidth(v: ExportVariable): number {
  return Math.min(MAX_STRING, Math.max(1, Math.ceil(v.width ?? DEFAULT_STRING_BYTES)));
}

function inputFormat(v: ExportVariable): string {
  switch (v.type) {
    case 'number':
      return 'F40';
    case 'date':
      return 'SDATE10';
    case 'datetime':
      return 'YMDHMS19';
    default:
      return `A${stringWidth(v)}`;
  }
}

export function spssSyntax(
  table: ExportTable,
  dataFile: string,
  names: VariableNames = variableNames(table.variables, 'spss'),
): string {
  const lines = headerLines(`${table.label ?? table.name}（SPSS 语法）`, dataFile, names.renamed).map(comment);
  const name = (i: number) => names.names[i]!;
  lines.push(
    'GET DATA',
    '  /TYPE=TXT',
    `  /FILE=${q(dataFile)}`,
    "  /ENCODING='UTF8'",
    '  /ARRANGEMENT=DELIMITED',
    '  /DELCASE=LINE',
    '  /FIRSTCASE=2',
    '  /DELIMITERS=","',
    `  /QUALIFIER='"'`,
    '  /VARIABLES=',
    ...table.variables.map((v, i) => `    ${name(i)} ${inputFormat(v)}`),
    '.',
  );
  if (table.variables.length > 0)
    lines.push(
      'VARIABLE LABELS',
      ...table.variables.map((v, i) => `  ${i > 0 ? '/' : ''}${name(i)} ${q(cutBytes(oneLine(v.label), 255))}`),
      '.',
    );
  const valueLabels = table.variables.flatMap((v, i) => {
    const pairs = (v.valueLabels ?? [])
      .filter((l) => v.type !== 'number' || isNumericCode(l.code))
      .map((l) => `${v.type === 'number' ? l.code : q(l.code)} ${q(cutBytes(oneLine(l.label), 120))}`);
    return pairs.length > 0 ? [`  /${name(i)} ${pairs.join(' ')}`] : [];
  });
  if (valueLabels.length > 0) lines.push('VALUE LABELS', ...valueLabels, '.');
  const formats = table.variables.flatMap((v, i) =>
    v.type === 'number' ? [`  ${name(i)} (F20.${Math.min(16, Math.max(0, v.decimals ?? NUMBER_DECIMALS))})`] : [],
  );
  if (formats.length > 0) lines.push('FORMATS', ...formats, '.');
  if (table.label) lines.push(`FILE LABEL ${q(cutBytes(oneLine(table.label), 64))}.`);
  lines.push('EXECUTE.', '');
  return lines.join('\n');
}
