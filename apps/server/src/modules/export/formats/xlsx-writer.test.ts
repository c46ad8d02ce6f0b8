import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ExportTable } from './export-table';
import { fileOut, PATIENT_ROWS, PATIENTS, tempDir } from './formats.test-support';
import { failingConsumer, manyRows } from './formats.test-support';
import { writeXlsx } from './xlsx-writer';

const dir = tempDir('xlsx');

async function readBack(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

const values = (sheet: ExcelJS.Worksheet) => {
  const out: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: unknown[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) cells.push(row.getCell(c).value ?? null);
    out.push(cells);
  });
  return out;
};

describe('writeXlsx', () => {
  it('should read back with exceljs as the rows given, typed, with the names in the first row', async () => {
    const file = path.join(dir, 'patients.xlsx');
    const result = await writeXlsx(PATIENTS, PATIENT_ROWS, fileOut(file));
    const bytes = readFileSync(file);
    expect(result).toEqual({ rows: 5, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    const workbook = await readBack(file);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['patients']);
    const rows = values(workbook.worksheets[0]!);
    expect(rows[0]).toEqual(PATIENTS.variables.map((v) => v.name));
    expect(rows.slice(1)).toEqual(
      PATIENT_ROWS.map((row) =>
        row.map((v, i) => {
          if (v === null) return null;
          if (typeof v === 'string' && v.includes('\r')) return v.replace(/\r\n/g, '\n');
          const type = PATIENTS.variables[i]!.type;
          if (type === 'date') return new Date(`${v}T00:00:00Z`);
          if (type === 'datetime') return new Date(`${String(v).replace(' ', 'T')}Z`);
          return v;
        }),
      ),
    );
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getCell('E2').numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getCell('F2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(typeof sheet.getCell('D2').value).toBe('number');
  });

  it('should put the labels in the first row when asked', async () => {
    const file = path.join(dir, 'labels.xlsx');
    await writeXlsx(PATIENTS, PATIENT_ROWS.slice(0, 1), fileOut(file), { header: 'labels' });
    const rows = values((await readBack(file)).worksheets[0]!);
    expect(rows[0]).toEqual(PATIENTS.variables.map((v) => v.label));
  });

  it('should continue on a further sheet with the same header when a sheet is full', async () => {
    const table: ExportTable = { name: 'meds', variables: [{ name: 'n', label: '序号', type: 'number' }] };
    const file = path.join(dir, 'split.xlsx');
    const result = await writeXlsx(
      table,
      Array.from({ length: 5 }, (_, i) => [i]),
      fileOut(file),
      { rowsPerSheet: 2 },
    );
    expect(result.rows).toBe(5);
    const workbook = await readBack(file);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['meds', 'meds_2', 'meds_3']);
    expect(workbook.worksheets.map(values)).toEqual([
      [['n'], [0], [1]],
      [['n'], [2], [3]],
      [['n'], [4]],
    ]);
  });

  it('should drop characters XML cannot hold and cut a text longer than a cell holds', async () => {
    const table: ExportTable = { name: 't', variables: [{ name: 's', label: 'S', type: 'string' }] };
    const file = path.join(dir, 'clean.xlsx');
    await writeXlsx(table, [['a\u0001b'], ['长'.repeat(40_000)]], fileOut(file));
    const rows = values((await readBack(file)).worksheets[0]!);
    expect(rows[1]).toEqual(['ab']);
    expect((rows[2]![0] as string).length).toBe(32_767);
  });
  it('should reject, not hang, when the consumer fails', async () => {
    const out = failingConsumer();
    await expect(writeXlsx(PATIENTS, manyRows(PATIENTS, 100_000), out)).rejects.toThrow('upload lost');
    expect(out.destroyed).toBe(true);
  });
});
