import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { guardFormula, writeCsv } from './csv-writer';
import type { ExportTable } from './export-table';
import { fileOut, PATIENT_ROWS, PATIENTS, tempDir } from './formats.test-support';
import { failingConsumer, manyRows } from './formats.test-support';

const dir = tempDir('csv');
const read = (file: string) => parse(readFileSync(file), { bom: true, relax_column_count: false }) as string[][];

describe('writeCsv', () => {
  it('should read back as the rows given (Chinese, quotes, commas, line breaks, nulls) with the names first', async () => {
    const file = path.join(dir, 'patients.csv');
    const result = await writeCsv(PATIENTS, PATIENT_ROWS, fileOut(file));
    const bytes = readFileSync(file);
    expect(result).toEqual({
      rows: 5,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = read(file);
    expect(records[0]).toEqual(PATIENTS.variables.map((v) => v.name));
    const expected = PATIENT_ROWS.map((row) => row.map((v) => (v === null ? '' : String(v))));
    expected[1]![6] = `'=HYPERLINK("http://x")`;
    expected[3]![6] = "'-1+1";
    expect(records.slice(1)).toEqual(expected);
  });

  it('should end every record with CRLF and quote by RFC 4180', async () => {
    const table: ExportTable = { name: 't', variables: [{ name: 'a', label: 'A', type: 'string' }] };
    const file = path.join(dir, 'rfc.csv');
    await writeCsv(table, [['x,y'], ['他说"好"'], ['a\nb'], [null], ['']], fileOut(file), { bom: false });
    expect(readFileSync(file, 'utf8')).toBe('a\r\n"x,y"\r\n"他说""好"""\r\n"a\nb"\r\n\r\n\r\n');
  });

  it('should put a quote before formula-like text but leave numbers and numeric literals alone', async () => {
    const table: ExportTable = {
      name: 't',
      variables: [
        { name: 's', label: 'S', type: 'string' },
        { name: 'n', label: 'N', type: 'number' },
      ],
    };
    const file = path.join(dir, 'guard.csv');
    const rows = [
      ['=1+2', -5],
      ['+cmd', '=cmd'],
      ['-2+3', 1],
      ['@SUM(A1)', 0],
      ['\tx', 0],
      ['＝1', 0],
      ['-1', 0],
      ['+86', 0],
      ['a=b', 0],
      ['x', '-7'],
    ];
    await writeCsv(table, rows, fileOut(file));
    expect(read(file).slice(1)).toEqual([
      ["'=1+2", '-5'],
      ["'+cmd", "'=cmd"],
      ["'-2+3", '1'],
      ["'@SUM(A1)", '0'],
      ["'\tx", '0'],
      ["'＝1", '0'],
      ['-1', '0'],
      ['+86', '0'],
      ['a=b', '0'],
      ['x', '-7'],
    ]);
    expect(guardFormula("'=x")).toBe("'=x");
  });

  it('should leave values as they are and flatten line breaks for a statistics data file', async () => {
    const file = path.join(dir, 'stats.csv');
    await writeCsv(PATIENTS, PATIENT_ROWS, fileOut(file), {
      formulaGuard: false,
      flattenLineBreaks: true,
      header: ['id', 'sex', 'blood', 'weight', 'birth', 'visit', 'note'],
    });
    const records = read(file);
    expect(records[0]).toEqual(['id', 'sex', 'blood', 'weight', 'birth', 'visit', 'note']);
    expect(records.map((r) => r[6])).toEqual([
      'note',
      '心悸，胸闷 "两周"',
      '=HYPERLINK("http://x")',
      '第一行 第二行 第三行',
      '-1+1',
      '',
    ]);
  });

  it('should reject and destroy the output when the rows fail, writing no further', async () => {
    let written = 0;
    const out = new Writable({
      write(chunk: Buffer, _e, cb) {
        written += chunk.length;
        cb();
      },
    });
    async function* failing() {
      yield ['a'];
      throw new Error('cursor lost');
    }
    const table: ExportTable = { name: 't', variables: [{ name: 'a', label: 'A', type: 'string' }] };
    await expect(writeCsv(table, failing(), out)).rejects.toThrow('cursor lost');
    expect(out.destroyed).toBe(true);
    expect(written).toBeLessThan(100);
  });
  it('should reject, not hang, when the consumer fails', async () => {
    const out = failingConsumer();
    await expect(writeCsv(PATIENTS, manyRows(PATIENTS, 100_000), out)).rejects.toThrow('upload lost');
    expect(out.destroyed).toBe(true);
  });
});
