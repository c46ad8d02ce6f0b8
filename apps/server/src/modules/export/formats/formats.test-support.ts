import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
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
  ['P003', null, null, 70, null, '2026-01-01 00:00:00', '第一行\n第二行\r\n第三行'],
  ['P004', 1, 'A', -3.25, '2000-01-01', '2026-06-30 23:59:59', '-1+1'],
  ['P005', 2, null, 0, '1990-07-15', null, null],
];
