import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { variableNames, type ExportTable, type ExportVariable } from './export-table';
import { fileOut, PATIENT_ROWS, PATIENTS, runTool, tempDir } from './formats.test-support';
import { statsFiles, writeStatsData } from './stats-export';

const dir = tempDir('stats');
const readCsv = (file: string) => parse(readFileSync(file), { bom: true }) as string[][];
const v = (name: string): ExportVariable => ({ name, label: name, type: 'string' });

/** Writes the data and syntax files of one package into the temp folder. */
async function writeFiles(table: ExportTable, target: 'spss' | 'stata' | 'sas' | 'r', rows = PATIENT_ROWS) {
  const files = statsFiles(table, target);
  writeFileSync(path.join(dir, files.syntaxFile), files.syntax);
  await writeStatsData(table, rows, fileOut(path.join(dir, files.dataFile)), target, files.names);
  return files;
}

describe('variableNames', () => {
  it('should keep safe names and make the others safe, unique and within each package’s length', () => {
    const variables = [
      v('record_id'),
      v('_n'),
      v('if'),
      v('in'),
      v('str12'),
      v('2nd_visit'),
      v('体重'),
      v('体温'),
      v('a'.repeat(70)),
      v('a'.repeat(70)),
      v('Record_ID'),
      v('with'),
      v('_N_'),
    ];
    expect(variableNames(variables, 'stata').names).toEqual([
      'record_id',
      'v_n',
      'if_',
      'in_',
      'str12_',
      'v2nd_visit',
      'v__',
      'v___2',
      'a'.repeat(32),
      `${'a'.repeat(30)}_2`,
      'Record_ID_2',
      'with_',
      'v_N_',
    ]);
    expect(variableNames(variables, 'spss').names.slice(8, 13)).toEqual([
      'a'.repeat(64),
      `${'a'.repeat(62)}_2`,
      'Record_ID_2',
      'with_',
      'v_N_',
    ]);
    expect(variableNames([v('if'), v('TRUE'), v('x.y')], 'r').names).toEqual(['if_', 'TRUE_', 'x_y']);
    const renamed = variableNames([v('record_id'), v('if')], 'stata').renamed;
    expect(renamed).toEqual([{ from: 'if', to: 'if_' }]);
    for (const target of ['spss', 'stata', 'sas', 'r'] as const) {
      const { names } = variableNames(variables, target);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      for (const n of names) expect(n).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
    }
  });

  it('should not take a reserved word when a suffix is added to a clashing name', () => {
    expect(variableNames([v('in'), v('in_')], 'stata').names).toEqual(['in_', 'in__2']);
  });
});

describe('SPSS syntax', () => {
  it('should read the data in PSPP with the variable labels, value labels and values', async () => {
    const files = await writeFiles(PATIENTS, 'spss');
    writeFileSync(
      path.join(dir, 'check.sps'),
      `INSERT FILE=${JSON.stringify(files.syntaxFile)}.\nDISPLAY DICTIONARY.\n` +
        "SAVE TRANSLATE /OUTFILE='spss-labels.csv' /TYPE=CSV /FIELDNAMES /CELLS=LABELS /REPLACE.\n" +
        "SAVE TRANSLATE /OUTFILE='spss-values.csv' /TYPE=CSV /FIELDNAMES /CELLS=VALUES /REPLACE.\n",
    );
    runTool('pspp', ['-o', 'spss-dictionary.csv', 'check.sps'], dir, 'GNU PSPP (Debian package pspp)');
    const dictionary = readFileSync(path.join(dir, 'spss-dictionary.csv'), 'utf8');
    const variablesTable = parse(dictionary.split('Table: Variables\n')[1]!.split('\n\n')[0]!, {
      columns: true,
    }) as Record<string, string>[];
    expect(variablesTable.map((r) => [r.Name, r.Label, r['Print Format']])).toEqual([
      ['record_id', '患者编号', 'A20'],
      ['sex', '性别', 'F20.4'],
      ['blood_type', '血型 "ABO"', 'A1500'],
      ['weight', '体重（kg）', 'F20.1'],
      ['birth_date', '出生日期', 'SDATE10'],
      ['visit_at', '就诊时间', 'YMDHMS20.0'],
      ['note', '备注，含逗号', 'A200'],
    ]);
    expect(readCsv(path.join(dir, 'spss-values.csv'))).toEqual([
      ['record_id', 'sex', 'blood_type', 'weight', 'birth_date', 'visit_at', 'note'],
      ['P001', '1', 'A', '62.5', '03/02/1960', '11/20/2026 08:30:00', '心悸，胸闷 "两周"'],
      ['P002', '2', 'AB', ' ', '12/31/1975', ' ', '=HYPERLINK("http://x")'],
      ['P003', ' ', '', '70', ' ', '01/01/2026 00:00:00', '第一行 第二行 第三行'],
      ['P004', '1', 'A', '-3.25', '01/01/2000', '06/30/2026 23:59:59', '-1+1'],
      ['P005', '2', '', '0', '07/15/1990', ' ', ''],
    ]);
    expect(readCsv(path.join(dir, 'spss-labels.csv')).map((r) => r.slice(1, 3))).toEqual([
      ['sex', 'blood_type'],
      ['男', "A 型（'常见'）"],
      ['女', 'AB 型 "少见"'],
      [' ', ''],
      ['男', "A 型（'常见'）"],
      ['女', ''],
    ]);
  });
});

describe('R script', () => {
  it('should read the data in R with label attributes, types and factors', async () => {
    const files = await writeFiles(PATIENTS, 'r');
    writeFileSync(
      path.join(dir, 'check.R'),
      [
        `source(${JSON.stringify(files.syntaxFile)}, encoding = "UTF-8")`,
        'label <- function(x) { l <- attr(x, "label"); if (is.null(l)) "" else l }',
        'meta <- data.frame(name = names(data), class = sapply(data, function(x) class(x)[1]), label = sapply(data, label))',
        'write.csv(meta, "r-meta.csv", row.names = FALSE, fileEncoding = "UTF-8")',
        'write.csv(data, "r-data.csv", row.names = FALSE, fileEncoding = "UTF-8", na = "")',
        'cat(label(data), "\\n", file = "r-table.txt")',
      ].join('\n'),
    );
    runTool('Rscript', ['check.R'], dir, 'R (Debian package r-base-core)');
    expect(readCsv(path.join(dir, 'r-meta.csv'))).toEqual([
      ['name', 'class', 'label'],
      ['record_id', 'character', '患者编号'],
      ['sex', 'numeric', '性别'],
      ['blood_type', 'character', '血型 "ABO"'],
      ['weight', 'numeric', '体重（kg）'],
      ['birth_date', 'Date', '出生日期'],
      ['visit_at', 'POSIXct', '就诊时间'],
      ['note', 'character', '备注，含逗号'],
      ['sex.factor', 'factor', '性别'],
      ['blood_type.factor', 'factor', '血型 "ABO"'],
    ]);
    expect(readCsv(path.join(dir, 'r-data.csv')).slice(1)).toEqual([
      ['P001', '1', 'A', '62.5', '1960-03-02', '2026-11-20 08:30:00', '心悸，胸闷 "两周"', '男', "A 型（'常见'）"],
      ['P002', '2', 'AB', '', '1975-12-31', '', '=HYPERLINK("http://x")', '女', 'AB 型 "少见"'],
      ['P003', '', '', '70', '', '2026-01-01 00:00:00', '第一行 第二行 第三行', '', ''],
      ['P004', '1', 'A', '-3.25', '2000-01-01', '2026-06-30 23:59:59', '-1+1', '男', "A 型（'常见'）"],
      ['P005', '2', '', '0', '1990-07-15', '', '', '女', ''],
    ]);
    expect(readFileSync(path.join(dir, 'r-table.txt'), 'utf8').trim()).toBe('患者');
  });

  it('should escape backslashes and quotes in R strings', () => {
    const table: ExportTable = {
      name: 't',
      variables: [{ name: 'x', label: 'a\\b "c"\nd', type: 'string' }],
    };
    expect(statsFiles(table, 'r').syntax).toContain('attr(data[["x"]], "label") <- "a\\\\b \\"c\\" d"');
  });
});

/** A table whose labels hold what each language must escape. */
const TRICKY: ExportTable = {
  name: 'tricky',
  label: '难"缠',
  variables: [
    { name: 'id', label: '编号 \'x\' "y"', type: 'string', width: 10 },
    {
      name: 'cost',
      label: '费用 $HOME `x\' "a"\'b',
      type: 'number',
      valueLabels: [
        { code: '1', label: '低 $x' },
        { code: '-2', label: '高 "\'' },
      ],
    },
    {
      name: 'grade',
      label: '等级',
      type: 'number',
      valueLabels: [
        { code: '1.5', label: '一点五' },
        { code: 'X', label: '不适用' },
      ],
    },
    { name: 'if', label: '如果 */ ; 结束', type: 'string' },
    { name: 'seen', label: '日期', type: 'date' },
  ],
};

describe('Stata do-file', () => {
  const { syntax, dataFile, names } = statsFiles(TRICKY, 'stata');

  it('should name every variable, convert the types and apply the integer value labels', () => {
    expect(names.names).toEqual(['id', 'cost', 'grade', 'if_', 'seen']);
    expect(syntax).toContain(`import delimited using \`"${dataFile}"', varnames(nonames) rowrange(2)`);
    expect(syntax).toContain('encoding("utf-8") stringcols(_all)');
    expect(syntax).toContain('rename (v1 v2 v3 v4 v5) ///\n  (id cost grade if_ seen)');
    expect(syntax).toContain('destring cost, replace');
    expect(syntax).toContain('generate double __cv = date(seen, "YMD")');
    for (const name of names.names) expect(syntax).toMatch(new RegExp(`^label variable ${name} `, 'm'));
    expect(syntax).toContain('label define cost 1 `"低 \\$x"\' -2 `"高 " \'"\', replace');
    expect(syntax).toContain('label values cost cost');
    expect(syntax).toContain('*   if -> if_');
  });

  it('should keep non-integer codes as a note instead of a value label', () => {
    expect(syntax).not.toContain('label define grade');
    expect(syntax).toContain('notes grade: 值标签：1.5 = 一点五；X = 不适用');
  });

  it('should escape macro characters and the closing compound quote in labels', () => {
    expect(syntax).toContain('label variable cost `"费用 \\$HOME \\`x\' "a" \'b"\'');
    expect(syntax).toContain('label data `"难"缠"\'');
  });
});

describe('SAS program', () => {
  const { syntax, dataFile, names } = statsFiles(TRICKY, 'sas');

  it('should read the data file with an informat, an input and a label for every variable', () => {
    expect(syntax).toContain(`filename datafile '${dataFile}' encoding='utf-8';`);
    expect(syntax).toContain("infile datafile dsd dlm=',' firstobs=2 truncover lrecl=1048576 termstr=crlf;");
    expect(names.names).toEqual(['id', 'cost', 'grade', 'if', 'seen']);
    const block = (word: string) => syntax.split(`  ${word}\n`)[1]!.split('  ;')[0]!;
    expect(block('informat')).toBe(
      '    id $char10.\n    cost best32.\n    grade best32.\n    if $char1500.\n    seen yymmdd10.\n',
    );
    expect(block('input')).toBe('    id $\n    cost\n    grade\n    if $\n    seen\n');
    expect(block('label')).toBe(
      "    id='编号 ''x'' \"y\"'\n    cost='费用 $HOME `x'' \"a\"''b'\n    grade='等级'\n" +
        "    if='如果 */ ; 结束'\n    seen='日期'\n",
    );
  });

  it('should define value formats from numeric codes only and attach them', () => {
    expect(syntax).toContain("  value cost_\n    1='低 $x'\n    -2='高 \"'''\n  ;");
    expect(syntax).toContain("  value grade_\n    1.5='一点五'\n  ;");
    expect(syntax).toContain('    cost cost_.\n    grade grade_.\n');
    expect(syntax).toContain("data work.tricky (label='难\"缠');");
  });

  it('should keep comments closed when a name holds a comment end', () => {
    const table: ExportTable = { name: 't', variables: [{ name: 'a*/b', label: 'x', type: 'string' }] };
    const sas = statsFiles(table, 'sas').syntax;
    expect(sas).toContain('/*   a* /b -> a__b */');
  });
});

describe('SPSS syntax text', () => {
  it('should double quotes and leave text codes off a number variable', () => {
    const { syntax } = statsFiles(TRICKY, 'spss');
    expect(syntax).toContain('  /cost 1 "低 $x" -2 "高 ""\'"');
    expect(syntax).toContain('  /grade 1.5 "一点五"\n');
    expect(syntax).toContain('FILE LABEL "难""缠".');
  });
});
