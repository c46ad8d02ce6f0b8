import { variableNames, type ExportTable, type VariableNames } from './export-table';
import { cutChars, headerLines, isIntegerCode, oneLine } from './syntax-text';

/**
 * The Stata do-file (.do) that reads the table's data file (see stats-export.ts) and labels it — REDCap's Stata export
 * in shape. Reference: Stata 16 manuals ([D] import delimited, [D] label, [D] notes, [D] destring, [D] rename group,
 * [U] 18.3.5 "Double quotes" — compound quotes, [U] 18.3.11 "Macro expansion"); Stata 16 or later (Unicode, and
 * `import delimited`'s `maxquotedrows`). Stata is not available here: the tests check the text.
 *
 * - Every column is read as text (`stringcols(_all)`, columns `v1`…`vN` after the header row) and then converted:
 *   numbers with `destring`, dates with `date(…, "YMD")` (`%td`), date-times with `clock(…, "YMDhms")` (`%tc`). So
 *   Stata never guesses a type or mangles a name, and the names are ours (variableNames 'stata': ≤ 32 characters, no
 *   reserved word).
 * - Value labels: Stata labels only integer values. A number variable whose codes are all integers gets `label define`
 *   and `label values`. Other coded variables (text codes such as `A`, or decimals) keep their values, and their
 *   labels are attached as a note (`notes`), so nothing is lost and nothing is recoded behind the reader's back.
 * - Labels are in compound quotes `` `"…"' `` (a `"` inside needs no escape); `$` and `` ` `` are escaped with `\` so
 *   no macro expands; the one sequence compound quotes cannot hold, `"'`, gets a space between. Variable labels are
 *   cut to 80 characters (Stata's limit), data labels to 80.
 */

const quote = (text: string) =>
  `\`"${oneLine(text)
    .replace(/\\(?=[`$])/g, '\\\\')
    .replace(/[`$]/g, (c) => `\\${c}`)
    .replace(/"'/g, `" '`)}"'`;

/** A comment line: `*` comments end at the line's end; a trailing `///` would join the next line, so it is broken. */
const comment = (text: string) => `* ${text.replace(/\/\/+\s*$/, '')}`;

export function stataSyntax(
  table: ExportTable,
  dataFile: string,
  names: VariableNames = variableNames(table.variables, 'stata'),
): string {
  const lines = headerLines(
    `${table.label ?? table.name}（Stata do 文件，Stata 16 及以上）`,
    dataFile,
    names.renamed,
  ).map(comment);
  const n = table.variables.length;
  const name = (i: number) => names.names[i]!;
  lines.push(
    'version 16',
    'clear',
    `import delimited using ${quote(dataFile)}, varnames(nonames) rowrange(2) delimiters(",") ///`,
    '  bindquote(strict) maxquotedrows(unlimited) encoding("utf-8") stringcols(_all) clear',
  );
  if (n > 0) {
    lines.push(`rename (${table.variables.map((_, i) => `v${i + 1}`).join(' ')}) ///`);
    lines.push(`  (${names.names.join(' ')})`);
  }
  table.variables.forEach((v, i) => {
    const x = name(i);
    if (v.type === 'number') {
      lines.push(`destring ${x}, replace`);
      if (v.decimals !== undefined) lines.push(`format ${x} %20.${Math.min(16, Math.max(0, v.decimals))}f`);
    } else if (v.type === 'date' || v.type === 'datetime') {
      const [fn, mask, fmt] =
        v.type === 'date' ? ['date', 'YMD', '%tdCCYY-NN-DD'] : ['clock', 'YMDhms', '%tcCCYY-NN-DD_HH:MM:SS'];
      lines.push(
        `generate double __cv = ${fn}(${x}, "${mask}")`,
        `drop ${x}`,
        `rename __cv ${x}`,
        `format ${x} ${fmt}`,
      );
    }
  });
  if (n > 0) lines.push(`order ${names.names.join(' ')}`);
  table.variables.forEach((v, i) => lines.push(`label variable ${name(i)} ${quote(cutChars(oneLine(v.label), 80))}`));
  table.variables.forEach((v, i) => {
    const labels = v.valueLabels ?? [];
    if (labels.length === 0) return;
    const x = name(i);
    if (v.type === 'number' && labels.every((l) => isIntegerCode(l.code))) {
      lines.push(
        `label define ${x} ${labels.map((l) => `${l.code} ${quote(l.label)}`).join(' ')}, replace`,
        `label values ${x} ${x}`,
      );
    } else {
      lines.push(
        comment(`${x} 的编码不是整数，Stata 值标签无法使用：值标签记为注释（notes ${x}）`),
        `notes ${x}: ${quote(`值标签：${labels.map((l) => `${l.code} = ${l.label}`).join('；')}`).slice(2, -2)}`,
      );
    }
  });
  if (table.label) lines.push(`label data ${quote(cutChars(oneLine(table.label), 80))}`);
  lines.push('');
  return lines.join('\n');
}
