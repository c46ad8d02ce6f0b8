import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { writeCsv } from './csv-writer';
import type { ExportRow } from './export-table';
import { failingConsumer, fileOut, manyRows, PATIENT_ROWS, PATIENTS, tempDir } from './formats.test-support';
import { statsFiles, writeStatsData } from './stats-export';
import { writeXlsx } from './xlsx-writer';
import { writeZip } from './zip-writer';

const dir = tempDir('zip');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('writeZip', () => {
  it('should hold every file, each written by its writer in turn, and read back unchanged', async () => {
    const file = path.join(dir, 'export.zip');
    const spss = statsFiles(PATIENTS, 'spss');
    const order: string[] = [];
    const traced = (name: string, rows: readonly ExportRow[]) =>
      (async function* () {
        order.push(`${name} starts`);
        yield* rows;
        order.push(`${name} ends`);
      })();
    const result = await writeZip(
      [
        { name: 'patients.csv', write: (out) => writeCsv(PATIENTS, traced('csv', PATIENT_ROWS), out) },
        {
          name: 'patients.xlsx',
          compress: false,
          write: (out) => writeXlsx(PATIENTS, traced('xlsx', PATIENT_ROWS), out),
        },
        {
          name: `spss/${spss.dataFile}`,
          write: (out) => writeStatsData(PATIENTS, traced('spss', PATIENT_ROWS), out, 'spss', spss.names),
        },
        { name: `spss/${spss.syntaxFile}`, content: spss.syntax },
      ],
      fileOut(file),
      { mtime: new Date('2026-11-27T08:00:00Z') },
    );
    expect(order).toEqual(['csv starts', 'csv ends', 'xlsx starts', 'xlsx ends', 'spss starts', 'spss ends']);
    const bytes = readFileSync(file);
    expect(result.rows).toBe(4);
    expect(result.bytes).toBe(bytes.length);
    expect(result.sha256).toBe(sha(bytes));

    const zip = await JSZip.loadAsync(bytes);
    expect(Object.keys(zip.files).sort()).toEqual([
      'patients.csv',
      'patients.xlsx',
      'spss/patients_spss.csv',
      'spss/patients_spss.sps',
    ]);
    const csv = await zip.file('patients.csv')!.async('nodebuffer');
    expect(result.files[0]).toEqual({ name: 'patients.csv', rows: 5, bytes: csv.length, sha256: sha(csv) });
    expect((parse(csv, { bom: true }) as string[][]).slice(1).map((r) => r[0])).toEqual([
      'P001',
      'P002',
      'P003',
      'P004',
      'P005',
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await zip.file('patients.xlsx')!.async('nodebuffer')) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets[0]!.rowCount).toBe(6);
    expect(await zip.file('spss/patients_spss.sps')!.async('string')).toBe(spss.syntax);
    expect(result.files.map((f) => [f.name, f.rows])).toEqual([
      ['patients.csv', 5],
      ['patients.xlsx', 5],
      ['spss/patients_spss.csv', 5],
      ['spss/patients_spss.sps', 0],
    ]);
  });

  it('should fail and destroy the output when one file’s rows fail', async () => {
    async function* failing(): AsyncGenerator<ExportRow> {
      yield PATIENT_ROWS[0]!;
      throw new Error('cursor lost');
    }
    const out = fileOut(path.join(dir, 'failed.zip'));
    await expect(
      writeZip(
        [
          { name: 'a.csv', write: (o) => writeCsv(PATIENTS, PATIENT_ROWS, o) },
          { name: 'b.csv', write: (o) => writeCsv(PATIENTS, failing(), o) },
        ],
        out,
      ),
    ).rejects.toThrow('cursor lost');
    expect(out.destroyed).toBe(true);
  });

  it('should reject when the consumer fails and stop the file being written, closing its rows', async () => {
    let closed = false;
    async function* rows() {
      try {
        yield* manyRows(PATIENTS, 100_000);
      } finally {
        closed = true;
      }
    }
    const out = failingConsumer();
    await expect(writeZip([{ name: 'a.csv', write: (o) => writeCsv(PATIENTS, rows(), o) }], out)).rejects.toThrow(
      'upload lost',
    );
    expect(out.destroyed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });
});
