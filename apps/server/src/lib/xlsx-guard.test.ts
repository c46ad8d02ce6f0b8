import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { multipartFile } from '../../test/files';
import { crfDefinition, hospital, project, publishCrf } from '../../test/factories';
import { createBareTestApp, type TestApp } from '../../test/test-app';
import { xlsxBomb, xlsxWithEntries } from '../../test/zip-bomb';
import { assertXlsxWithinLimits, loadUploadedWorkbook, XLSX_GUARD_MESSAGES } from './xlsx-guard';

type Body<T = unknown> = { status: number; message: string; data: T };

const GiB = 1024 * 1024 * 1024;

async function smallWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('患者数据').addRow(['姓名', '住院号']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * The bytes every raw-inflate stream hands out while `run` runs: the guard's work on a bomb is bounded by what it lets
 * inflate, not by a clock (a busy machine makes any time limit flaky).
 */
async function inflatedDuring<T>(run: () => Promise<T>): Promise<{ result: T; inflated: number }> {
  let inflated = 0;
  const real = zlib.createInflateRaw;
  const spy = vi.spyOn(zlib, 'createInflateRaw').mockImplementation((options) => {
    const stream = real.call(zlib, options);
    stream.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
    });
    return stream;
  });
  try {
    return { result: await run(), inflated };
  } finally {
    spy.mockRestore();
  }
}

/** A lying entry declares 1,000 bytes: the guard stops within its first 64 KiB chunk, never near the gigabyte. */
const LYING_BOUND = 128 * 1024;

/** The guard's verdict: the Chinese message of its 400, or 'ok'. */
const verdict = (data: Buffer) =>
  assertXlsxWithinLimits(data).then(
    () => 'ok',
    (err: { statusCode?: number; message: string }) => `${err.statusCode} ${err.message}`,
  );

describe('assertXlsxWithinLimits', () => {
  let base: Buffer;
  beforeAll(async () => {
    base = await smallWorkbook();
  });

  it('should let a normal workbook through and load it', async () => {
    expect(await verdict(base)).toBe('ok');
    const book = await loadUploadedWorkbook(base);
    expect(book?.getWorksheet('患者数据')?.getRow(1).getCell(1).value).toBe('姓名');
  });

  it('should refuse an entry declaring 1 GiB from the central directory, without inflating it', async () => {
    const { result, inflated } = await inflatedDuring(() => verdict(xlsxBomb(base, GiB)));
    expect(result).toBe(`400 ${XLSX_GUARD_MESSAGES.tooLarge}`);
    expect(inflated).toBe(0);
  });

  it('should refuse an entry whose header lies about its size by counting what actually inflates', async () => {
    const lying = xlsxBomb(base, GiB, 1000);
    const { result, inflated } = await inflatedDuring(() => verdict(lying));
    expect(result).toBe(`400 ${XLSX_GUARD_MESSAGES.lying}`);
    expect(inflated).toBeGreaterThan(1000);
    expect(inflated).toBeLessThanOrEqual(LYING_BOUND);
  });

  it('should refuse a compression ratio no workbook has, and too many entries', async () => {
    expect(await verdict(xlsxBomb(base, 64 * 1024 * 1024))).toBe(`400 ${XLSX_GUARD_MESSAGES.ratio}`);
    expect(await verdict(xlsxWithEntries(base, 10_001))).toBe(`400 ${XLSX_GUARD_MESSAGES.tooManyEntries}`);
  });

  it('should leave data that is not a zip archive to the reader (unreadable, not a bomb)', async () => {
    expect(await verdict(Buffer.from('姓名,住院号\n'))).toBe('ok');
    expect(await loadUploadedWorkbook(Buffer.from('姓名,住院号\n'))).toBeNull();
  });
});

describe('every Excel upload refuses a zip bomb', () => {
  let t: TestApp;
  let owner: string;
  let template: Buffer;
  let dictionary: Buffer;

  let codeList: Buffer;
  let dictId: string;
  const upload = (url: string, data: Buffer) =>
    t.api({ method: 'POST', url, token: owner, ...multipartFile('上传.xlsx', data) });
  const ENDPOINTS = ['/patient-import/dry-run', '/patient-import/commit', '/form-definition/import/excel'];
  const dictImport = (call: 'dry-run' | 'commit') => `/sys-field-dict/import/${call}?dictId=${dictId}`;

  beforeAll(async () => {
    t = await createBareTestApp();
    const p = await project(t, (await hospital(t)).admin);
    owner = p.owner.token;
    await publishCrf(
      t,
      owner,
      crfDefinition({
        visit: [
          { key: 'weight', label: '体重', type: 'decimal', unit: 'kg' },
          {
            key: 'nyha',
            label: 'NYHA分级',
            type: 'radio',
            options: [
              { code: '1', label: 'I级' },
              { code: '2', label: 'II级' },
            ],
          },
        ],
      }),
    );
    template = (await t.api({ method: 'GET', url: '/patient-import/template', token: owner })).rawPayload;
    dictionary = (await t.api({ method: 'GET', url: '/form-definition/export/excel', token: owner })).rawPayload;
    const list = await t.api({
      method: 'POST',
      url: '/sys-field-dict',
      token: owner,
      payload: { code: 'bomb_target', name: '诊断' },
    });
    dictId = list.json<Body<{ id: string }>>().data.id;
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('诊断').addRows([
      ['编码', '名称'],
      ['I50', '心力衰竭'],
    ]);
    codeList = Buffer.from(await workbook.xlsx.writeBuffer());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('should still read normal workbooks on each endpoint', async () => {
    const dryRun = await upload('/patient-import/dry-run', template);
    expect(dryRun.statusCode, dryRun.body).toBe(200);
    const imported = await upload('/form-definition/import/excel', dictionary);
    expect(imported.statusCode, imported.body).toBe(200);
    const codes = await upload(dictImport('dry-run'), codeList);
    expect(codes.statusCode, codes.body).toBe(200);
  });

  it('should answer 400 at once for a bomb with honest headers and for one whose headers lie', async () => {
    for (const [base, url] of [
      [template, ENDPOINTS[0]],
      [template, ENDPOINTS[1]],
      [dictionary, ENDPOINTS[2]],
      [codeList, dictImport('dry-run')],
      [codeList, dictImport('commit')],
    ] as const) {
      for (const [bomb, message] of [
        [xlsxBomb(base, GiB), XLSX_GUARD_MESSAGES.tooLarge],
        [xlsxBomb(base, GiB, 1000), XLSX_GUARD_MESSAGES.lying],
      ] as const) {
        const { result: res, inflated } = await inflatedDuring(() => upload(url ?? '', bomb));
        expect({ url, status: res.statusCode, message: res.json<Body>().message }).toEqual({
          url,
          status: 400,
          message,
        });
        // refused without inflating the gigabyte: the template's own parts (~400 KB) and at most one chunk of the bomb
        expect(inflated, url).toBeLessThan(1024 * 1024);
      }
    }
  });
});
