import { variableNames, type ExportTable, type ExportVariable, type VariableNames } from './export-table';
import { headerLines, isNumericCode, oneLine } from './syntax-text';

/**
 * The R script (.r) that reads the table's data file (see stats-export.ts) and labels it — REDCap's R export in shape
 * (`read.csv`, a `.factor` column beside each coded variable), without Hmisc: a variable's label is the attribute
 * `label` (what Hmisc, haven and labelled read). Reference: R's ?read.table (fileEncoding "UTF-8-BOM", colClasses,
 * check.names, na.strings), ?factor, ?Quotes. The tests run it with Rscript.
 *
 * - Run with `source("<file>.r", encoding = "UTF-8")` from the folder of the data file.
 * - Types: `colClasses` reads numbers as numeric, dates as Date, text and date-times as character; date-times are then
 *   converted with `as.POSIXct(format = "%Y-%m-%d %H:%M:%S", tz = TIME_ZONE)` (the registry's wall-clock zone).
 * - An empty field is NA (`na.strings = ""`): the CSV cannot tell an empty text from a missing one.
 * - Strings are in double quotes with `\` and `"` escaped (?Quotes); labels on one line.
 */

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const q = (text: string) => `"${oneLine(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const colClass = (v: ExportVariable) => (v.type === 'number' ? 'numeric' : v.type === 'date' ? 'Date' : 'character');

export function rSyntax(
  table: ExportTable,
  dataFile: string,
  names: VariableNames = variableNames(table.variables, 'r'),
  timeZone = DEFAULT_TIME_ZONE,
): string {
  const lines = headerLines(
    `${table.label ?? table.name}（R 脚本：source(文件, encoding = "UTF-8")）`,
    dataFile,
    names.renamed,
  ).map((text) => `# ${text}`);
  const col = (i: number) => `data[[${q(names.names[i]!)}]]`;
  lines.push(
    'data <- read.csv(',
    `  ${q(dataFile)},`,
    '  fileEncoding = "UTF-8-BOM",',
    '  encoding = "UTF-8",',
    '  check.names = FALSE,',
    '  na.strings = "",',
    '  stringsAsFactors = FALSE,',
    `  col.names = c(${names.names.map(q).join(', ')}),`,
    `  colClasses = c(${table.variables.map((v) => q(colClass(v))).join(', ')})`,
    ')',
  );
  table.variables.forEach((v, i) => {
    if (v.type === 'datetime')
      lines.push(`${col(i)} <- as.POSIXct(${col(i)}, format = "%Y-%m-%d %H:%M:%S", tz = ${q(timeZone)})`);
  });
  table.variables.forEach((v, i) => lines.push(`attr(${col(i)}, "label") <- ${q(v.label)}`));
  table.variables.forEach((v, i) => {
    const labels = (v.valueLabels ?? []).filter((l) => v.type !== 'number' || isNumericCode(l.code));
    if (labels.length === 0) return;
    const factor = `data[[${q(`${names.names[i]!}.factor`)}]]`;
    const levels = labels.map((l) => (v.type === 'number' ? l.code : q(l.code))).join(', ');
    lines.push(
      `${factor} <- factor(${col(i)}, levels = c(${levels}), labels = c(${labels.map((l) => q(l.label)).join(', ')}))`,
      `attr(${factor}, "label") <- ${q(v.label)}`,
    );
  });
  if (table.label) lines.push(`attr(data, "label") <- ${q(table.label)}`);
  lines.push('');
  return lines.join('\n');
}
