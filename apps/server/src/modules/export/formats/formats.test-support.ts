import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll } from 'vitest';
import type { ExportRow, ExportTable } from './export-table';

/** A temp directory for the file's tests, removed after them. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const fileOut = (file: string): Writable => createWriteStream(file);

/** A patient table with every variable type, Chinese labels and value labels with codes of both kinds. */
export const PATIENTS: ExportTable = {
  name: 'patients',
  label: '患者',
  variables: [
    { name: 'record_id', label: '患者编号', type: 'string', width: 20 },
    {
      name: 'sex',
      label: '性别',
      type: 'number',
      valueLabels: [
        { code: '1', label: '男' },
        { code: '2', label: '女' },
      ],
    },
    {
      name: 'blood_type',
      label: '血型 "ABO"',
      type: 'string',
      valueLabels: [
        { code: 'A', label: "A 型（'常见'）" },
        { code: 'AB', label: 'AB 型 "少见"' },
      ],
    },
    { name: 'weight', label: '体重（kg）', type: 'number', decimals: 1 },
    { name: 'birth_date', label: '出生日期', type: 'date' },
    { name: 'visit_at', label: '就诊时间', type: 'datetime' },
    { name: 'note', label: '备注，含逗号', type: 'string', width: 200 },
  ],
};

export const PATIENT_ROWS: ExportRow[] = [
  ['P001', 1, 'A', 62.5, '1960-03-02', '2026-11-20 08:30:00', '心悸，胸闷 "两周"'],
  ['P002', 2, 'AB', null, '1975-12-31', null, '=HYPERLINK("http://x")'],
  ['P003', null, null, 70, null, '2026-01-01T00:00', '第一行\n第二行\r\n第三行'],
  ['P004', 1, 'A', -3.25, '2000-01-01', '2026-06-30 23:59:59', '-1+1'],
  ['P005', 2, null, 0, '1990-07-15', null, null],
];

/**
 * Runs a tool the tests need (xmllint, pspp, Rscript) in `cwd`; its output. A missing tool fails the test with what to
 * install (`.ci/run` installs them) — never a skip, so a run without them cannot pass unnoticed.
 */
export function runTool(command: string, args: readonly string[], cwd: string, what: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
      timeout: 60_000,
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string; stdout?: string };
    if (e.code === 'ENOENT')
      throw new Error(`测试需要 ${command}：请安装 ${what}。 / ${command} is missing: install ${what}.`, {
        cause: error,
      });
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? String(error)}`, {
      cause: error,
    });
  }
}

/** A consumer that fails on its second chunk (a lost connection to the object store). */
export function failingConsumer(): Writable {
  let chunks = 0;
  return new Writable({
    highWaterMark: 1024,
    write(_chunk: Buffer, _encoding, callback) {
      chunks++;
      setImmediate(() => callback(chunks > 1 ? new Error('upload lost') : null));
    },
  });
}

/** Many rows, made when asked for. */
export async function* manyRows(table: ExportTable, count: number): AsyncGenerator<ExportRow> {
  for (let i = 0; i < count; i++)
    yield table.variables.map((v) => (v.type === 'number' ? i : v.type === 'date' ? '2026-01-01' : `第 ${i} 行`));
}
