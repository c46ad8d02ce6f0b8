import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftResponse, ImportResponse, VersionSummary } from '@registry/shared/contracts/form-definition';
import { auditEvents } from '../../db/schema';
import { HF_REG_DEFINITION } from '../../db/seed-database';
import { hospital, member, project, publishCrf } from '../../../test/factories';
import { describeWithShared } from '../../../test/shared-folder';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import { definitionToWorkbook, DICTIONARY_SHEET, workbookToDefinition } from './excel';
import { checkOdmStructure } from '../../lib/odm/odm-structure.test-support';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

const here = path.dirname(fileURLToPath(import.meta.url));
/** The project's own whole dictionary; the Bridge2AI one is read from the shared folder where it is present. */
const OWN_REDCAP_DICTIONARY = path.resolve(here, '../../../test/fixtures/redcap/heart-failure-dictionary.csv');

let t: TestApp;
let owner: string;
let entry: string;
let hfId: string;

function multipart(name: string, data: Buffer, field = 'file') {
  const boundary = `----registry${Math.random().toString(16).slice(2)}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (url: string, token: string, name: string, data: Buffer) =>
  t.api({ method: 'POST', url, token, ...multipart(name, data) });

beforeAll(async () => {
  t = await createBareTestApp();
  // A project whose CRF is the heart-failure definition (every field type), published through the API; its owner
  // and a data-entry member are in it.
  const hf = await project(t, (await hospital(t)).admin);
  hfId = hf.id;
  owner = hf.owner.token;
  await publishCrf(t, owner, HF_REG_DEFINITION);
  entry = (await member(t, hf, 'data_entry')).token;
});

afterAll(async () => {
  await t.close();
});

describe('definition export', () => {
  it('should download the draft as an .xlsx attachment that reads back as the draft and audit it', async () => {
    const draft = (await t.api({ method: 'GET', url: '/form-definition/draft', token: owner })).json<
      Body<DraftResponse>
    >().data;
    const res = await t.api({ method: 'GET', url: '/form-definition/export/excel', token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; .*filename\*=UTF-8''.*\.xlsx$/);
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1] ?? '')).toContain(
      '数据字典-',
    );
    const back = await workbookToDefinition(res.rawPayload);
    expect(back.definition).toEqual(draft.definition);

    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'form_definition.export'), eq(auditEvents.entityType, 'form_draft')));
    expect(event?.newValue).toMatchObject({ projectId: hfId, format: 'excel', versionNo: null });
  });

  it('should download a version as ODM 1.3.2 XML that passes the structural check and audit the version', async () => {
    const versions = (await t.api({ method: 'GET', url: '/form-definition/versions', token: owner })).json<
      Body<VersionSummary[]>
    >().data;
    const version = versions[0];
    expect(version).toBeDefined();
    if (!version) return;
    const res = await t.api({
      method: 'GET',
      url: `/form-definition/export/odm?versionId=${version.id}`,
      token: owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; .*filename\*=UTF-8''.*-odm\.xml$/);
    expect(res.body).toContain('ODMVersion="1.3.2"');
    expect(res.body).toContain(`OID="MDV.v${version.versionNo}"`);
    expect(checkOdmStructure(res.body)).toEqual([]);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'form_definition.export'), eq(auditEvents.entityId, version.id)));
    expect(event?.newValue).toMatchObject({ format: 'odm', versionNo: version.versionNo });
  });

  it('should answer 404 when the version is not one of the project', async () => {
    const res = await t.api({
      method: 'GET',
      url: '/form-definition/export/odm?versionId=00000000-0000-4000-8000-000000000000',
      token: owner,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('版本不存在');
  });

  it('should refuse exports and imports with 403 when the member may not design the database', async () => {
    expect((await t.api({ method: 'GET', url: '/form-definition/export/excel', token: entry })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/form-definition/export/odm', token: entry })).statusCode).toBe(403);
    const res = await upload('/form-definition/import/redcap', entry, 'a.csv', Buffer.from('x'));
    expect(res.statusCode).toBe(403);
  });
});

describe('definition import', () => {
  it('should parse an exported workbook into the same definition without saving anything', async () => {
    const before = (await t.api({ method: 'GET', url: '/form-definition/draft', token: owner })).json<
      Body<DraftResponse>
    >().data;
    const file = await definitionToWorkbook(before.definition);
    const res = await upload('/form-definition/import/excel', owner, '数据字典.xlsx', file);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<Body<ImportResponse>>().data;
    expect(data.definition).toEqual(before.definition);
    expect(data.notes).toEqual([]);
    expect(data.formCount).toBeGreaterThan(0);
    const after = (await t.api({ method: 'GET', url: '/form-definition/draft', token: owner })).json<
      Body<DraftResponse>
    >().data;
    expect(after.revision).toBe(before.revision);
  });

  it('should answer 400 with Chinese row and column notes when the workbook has an unknown type', async () => {
    const draft = (await t.api({ method: 'GET', url: '/form-definition/draft', token: owner })).json<
      Body<DraftResponse>
    >().data;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await definitionToWorkbook(draft.definition)) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet(DICTIONARY_SHEET);
    if (!sheet) throw new Error('no dictionary sheet');
    let typeCol = 0;
    sheet.getRow(1).eachCell((cell, col) => {
      if (cell.value === '字段类型') typeCol = col;
    });
    sheet.getRow(3).getCell(typeCol).value = 'xyz';
    const res = await upload(
      '/form-definition/import/excel',
      owner,
      'bad.xlsx',
      Buffer.from(await workbook.xlsx.writeBuffer()),
    );
    expect(res.statusCode).toBe(400);
    const body = res.json<Body>();
    expect(body.message).toBe('Excel 数据字典有误，未能导入');
    expect(body.issues).toContainEqual({ path: '3:字段类型', message: '第 3 行「字段类型」：无法识别的类型 xyz' });
  });

  it('should answer 400 when the file is not the expected kind', async () => {
    const res = await upload('/form-definition/import/excel', owner, 'a.csv', Buffer.from('a,b'));
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().message).toBe('请上传 Excel 数据字典（.xlsx）');
    const broken = await upload('/form-definition/import/redcap', owner, 'a.csv', Buffer.from('name,age\nx,1\n'));
    expect(broken.statusCode).toBe(400);
    expect(broken.json<Body>().issues?.[0]?.message).toContain('不是 REDCap 数据字典');
  });

  it('should import a whole REDCap dictionary with its report and counts', async () => {
    const res = await upload(
      '/form-definition/import/redcap',
      owner,
      'heart-failure-dictionary.csv',
      readFileSync(OWN_REDCAP_DICTIONARY),
    );
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const data = res.json<Body<ImportResponse>>().data;
    expect(data.formCount).toBe(4);
    expect(data.fieldCount).toBe(39);
    expect(data.summary).toMatchObject({ rows: 41, branching: 15, branchingTranslated: 15 });
    expect(data.notes.length).toBeGreaterThan(0);
    expect(data.notes.every((n) => n.severity !== 'error')).toBe(true);
    expect(data.problems).toEqual([]);
  });
});

// In addition where the team's shared folder is present (required in CI): a real public dictionary.
describeWithShared(
  'definition import of the Bridge2AI REDCap dictionary',
  'fixtures/redcap/bridge2ai-voice-data-dictionary.csv',
  (file) => {
    it('should import the Bridge2AI REDCap dictionary with its report and counts', async () => {
      const res = await upload(
        '/form-definition/import/redcap',
        owner,
        'bridge2ai-voice-data-dictionary.csv',
        readFileSync(file),
      );
      expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
      const data = res.json<Body<ImportResponse>>().data;
      expect(data.formCount).toBe(59);
      expect(data.fieldCount).toBeGreaterThan(1800);
      expect(data.summary).toMatchObject({ rows: 1903, branching: 487 });
      expect(data.summary?.branchingTranslated).toBeGreaterThanOrEqual(463);
      expect(data.notes.length).toBeGreaterThan(0);
      expect(data.notes.every((n) => n.severity !== 'error')).toBe(true);
      expect(data.problems).toEqual([]);
    });
  },
);
