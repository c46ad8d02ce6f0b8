import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import type { ExportJobVO } from '@registry/shared/contracts/export';
import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';
import { auditEvents, exportJobs } from '../../db/schema';
import { createDefinitionCache } from '../../domain/crf/definition-cache';
import { resolvePhiKeys } from '../../lib/phi-crypto';
import { createStorage, type ObjectStorage } from '../../lib/storage';
import { hospital, patient, project, publishCrf } from '../../../test/factories';
import { describeWithShared } from '../../../test/shared-folder';
import { createBareTestApp, type TestApp } from '../../../test/test-app';
import type { JobContext } from '../jobs/job-queue';
import { createExportRunner, type ExportJobData } from './export-run';
import { runTool, tempDir } from './formats/formats.test-support';

/**
 * The export job itself, driven attempt by attempt (the app's workers are off): a worker that dies mid-export leaves
 * no file and the retry finishes it exactly once; a delivery of the finished job again changes nothing; the ODM file
 * is valid against the ODM 1.3.2 XSD and the SPSS syntax reads the data with its labels in PSPP.
 */

type Body<T = unknown> = { data: T };

const DEFINITION: Definition = {
  missingCodes: DEFAULT_MISSING_CODES,
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 'visit',
          title: '基线访视',
          fields: [
            { key: 'weight', label: '体重', type: 'decimal', precision: 1 },
            { key: 'visit_date', label: '访视日期', type: 'date' },
            {
              key: 'smoker',
              label: '吸烟',
              type: 'radio',
              options: [
                { code: '1', label: '从不' },
                { code: '2', label: '现在' },
              ],
            },
            {
              key: 'meds',
              label: '用药',
              type: 'group',
              fields: [{ key: 'drug', label: '药物', type: 'text' }],
            },
          ],
        },
        {
          key: 'labs',
          title: '化验',
          repeating: true,
          fields: [{ key: 'lb_value', label: '结果', type: 'decimal' }],
        },
      ],
    },
  ],
};

let t: TestApp;
let owner: string;
let storage: ObjectStorage;
let run: ReturnType<typeof createExportRunner>;
const dir = tempDir('export-run-');

/** A job context as pg-boss gives one; `progress` may fail (the worker "dies" at its first report). */
function job(exportId: string, retryCount: number, progress: JobContext['progress'] = async () => undefined) {
  return {
    id: `00000000-0000-4000-8000-00000000000${retryCount}`,
    queue: 'retrieval.export',
    data: { exportId },
    tenantId: null,
    userId: null,
    retryCount,
    progress,
  } satisfies JobContext<ExportJobData>;
}

const ask = async (payload: Record<string, unknown>) => {
  const res = await t.api({ method: 'POST', url: '/retrieval/export', token: owner, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Body<ExportJobVO>>().data.id;
};
const rowOf = async (id: string) => (await t.db.select().from(exportJobs).where(eq(exportJobs.id, id)))[0]!;

beforeAll(async () => {
  t = await createBareTestApp();
  const h = await hospital(t);
  const hf = await project(t, h.admin);
  owner = h.admin.token;
  await publishCrf(t, owner, DEFINITION);
  await t.api({ method: 'GET', url: `/web-project/change?projectId=${hf.id}`, token: owner });
  const save = async (patientId: string, formKey: string, data: Record<string, unknown>) => {
    const res = await t.api({
      method: 'POST',
      url: '/form-record/save',
      token: owner,
      payload: { patientId, formKey, rowVersion: 0, data },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  for (let i = 0; i < 4; i++) {
    const p = await patient(t, owner, {
      name: `患者${i}`,
      gender: i % 2 ? '1' : '2',
      enrolDate: '2024-01-15',
      centerId: hf.defaultCenterId,
    });
    await save(p.id, 'visit', {
      weight: 60 + i,
      visit_date: '2024-01-15',
      smoker: i % 2 ? '1' : '2',
      meds: [{ drug: `药物${i}` }],
    });
    await save(p.id, 'labs', { lb_value: i * 10 });
  }
  storage = createStorage(t.config.storage);
  run = createExportRunner({
    db: t.db,
    pool: t.database.pool,
    clock: t.clock,
    storage,
    definitions: createDefinitionCache(),
    keys: await resolvePhiKeys(t.config),
  });
}, 120_000);

afterAll(async () => {
  storage?.close();
  await t?.close();
});

describe('a worker that dies mid-export', () => {
  it('should leave no file, then finish exactly once on the retry; a repeated delivery changes nothing', async () => {
    const id = await ask({ format: 'csv', deidentified: true });
    await expect(
      run(
        job(id, 0, async () => {
          throw new Error('worker died');
        }),
      ),
    ).rejects.toThrow('worker died');
    expect((await rowOf(id)).state).toBe('running'); // pg-boss retries it
    expect(await storage.list('exports/')).toEqual([]);

    await run(job(id, 1));
    const done = await rowOf(id);
    expect(done).toMatchObject({ state: 'completed', rowCount: 4, progress: 100 });
    const object = await storage.get(done.fileKey!);
    const chunks: Buffer[] = [];
    for await (const c of object.stream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(done.sha256);
    expect(bytes.length).toBe(done.fileSize);

    expect(await run(job(id, 2))).toEqual({ skipped: 'completed' });
    const completions = await t.db.select().from(auditEvents).where(eq(auditEvents.entityId, id));
    expect(completions.filter((e) => e.action === 'export.complete')).toHaveLength(1);
    expect(await storage.list('exports/')).toEqual([done.fileKey]);
  });

  it('should fail for good with a Chinese message after its last attempt, leaving no file', async () => {
    const id = await ask({ format: 'xlsx', deidentified: true });
    const dies = async () => {
      throw new Error('connection reset');
    };
    await expect(run(job(id, 2, dies))).rejects.toThrow('connection reset');
    expect(await rowOf(id)).toMatchObject({ state: 'failed', error: '导出失败，请稍后重试', fileKey: null });
    expect((await storage.list('exports/')).filter((k) => k.includes(id))).toEqual([]);
  });
});

async function unzipTo(key: string, into: string): Promise<string[]> {
  const object = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const c of object.stream) chunks.push(c as Buffer);
  const zip = await JSZip.loadAsync(Buffer.concat(chunks));
  for (const [name, file] of Object.entries(zip.files))
    writeFileSync(path.join(into, name), await file.async('nodebuffer'));
  return Object.keys(zip.files).sort();
}

describe('a statistics export', () => {
  it('should read in PSPP with the value labels of the coded fields', async () => {
    const id = await ask({ format: 'spss', deidentified: true, forms: [{ key: 'visit' }] });
    await run(job(id, 0));
    const row = await rowOf(id);
    expect(row.state, row.error ?? '').toBe('completed');
    const names = await unzipTo(row.fileKey!, dir);
    expect(names).toEqual(['patients_spss.csv', 'patients_spss.sps', 'visit__meds_spss.csv', 'visit__meds_spss.sps']);
    writeFileSync(
      path.join(dir, 'check.sps'),
      "INSERT FILE='patients_spss.sps'.\nSAVE TRANSLATE /OUTFILE='labels.csv' /TYPE=CSV /FIELDNAMES /CELLS=LABELS /REPLACE.\n",
    );
    runTool('pspp', ['-o', 'out.txt', 'check.sps'], dir, 'GNU PSPP (Debian package pspp)');
    const labels = parse(readFileSync(path.join(dir, 'labels.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(labels.map((r) => r.smoker)).toEqual(['现在', '从不', '现在', '从不']);
    expect(labels.map((r) => Number(r.weight))).toEqual([60, 61, 62, 63]);
  });
});

describeWithShared('an ODM export', 'fixtures/odm/ODM1-3-2.xsd', (xsd) => {
  it('should be valid against the ODM 1.3.2 XSD, one SubjectData per patient', async () => {
    const id = await ask({ format: 'odm', deidentified: false });
    await run(job(id, 0));
    const row = await rowOf(id);
    expect(row.state, row.error ?? '').toBe('completed');
    const object = await storage.get(row.fileKey!);
    const chunks: Buffer[] = [];
    for await (const c of object.stream) chunks.push(c as Buffer);
    const file = path.join(dir, 'export.xml');
    writeFileSync(file, Buffer.concat(chunks));
    const output = runTool(
      'xmllint',
      ['--noout', '--nonet', '--schema', xsd, file],
      dir,
      'xmllint (Debian package libxml2-utils)',
    );
    expect(output).not.toMatch(/error/i);
    const xml = readFileSync(file, 'utf8');
    expect(xml.match(/<SubjectData /g)).toHaveLength(4);
    expect(xml).toContain('FormRepeatKey="1"');
  });
});
