import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DefinitionChange,
  DefinitionProblem,
  DraftResponse,
  PublishedResponse,
  PublishPreviewResponse,
  RecordCheckResponse,
  VersionDetailResponse,
  VersionSummary,
} from '@registry/shared/contracts/form-definition';
import { DEFAULT_MISSING_CODES, type Definition } from '@registry/shared/forms/definition';
import {
  auditEvents,
  centers,
  fieldDictOptions,
  fieldDicts,
  formRecords,
  formVersions,
  organisations,
  patients,
  projectMembers,
  projects,
  roles,
} from '../../db/schema';
import { HF_REG_DEFINITION, HF_REG_DRAFT, HFPEF_DEFINITION, T2DM_DEFINITION } from '../../db/seed-database';
import {
  buildProject,
  buildTenant,
  buildUser,
  hospital,
  member,
  project,
  publishCrf,
  type Account,
} from '../../../test/factories';
import { createBareTestApp, type TestApp } from '../../../test/test-app';

type Body<T = unknown> = { status: number; message: string; data: T; issues?: { path: string; message: string }[] };

let t: TestApp;
let owner: string;
let entry: string;
let ownerId: string;
let h001: string;
let hfId: string;
let hfpefId: string;
let ownerAccount: Account;
let entryAccount: Account;

const idOfProject = async (code: string) => {
  const [row] = await t.db.select().from(projects).where(eq(projects.code, code));
  if (!row) throw new Error(`project ${code} missing`);
  return row.id;
};
const enter = async (token: string, projectId: string) => {
  const res = await t.api({ method: 'GET', url: `/web-project/change?projectId=${projectId}`, token });
  expect(res.statusCode, res.body).toBe(200);
};
const roleId = async (code: string) => {
  const [row] = await t.db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.code, code), isNull(roles.tenantId)));
  return row?.id ?? '';
};

/** A new project of h001 owned by `owner`, entered by a fresh session of owner's. */
async function freshProject(parentId?: string): Promise<{ token: string; projectId: string }> {
  const project = await buildProject(t.db, h001, ownerId, parentId ? { parentId } : {});
  if (!parentId)
    await t.db.insert(projectMembers).values({
      tenantId: h001,
      projectId: project.id,
      userId: ownerId,
      roleId: await roleId('project_owner'),
    });
  const token = await t.login(ownerAccount.username, ownerAccount.password);
  await enter(token, project.id);
  return { token, projectId: project.id };
}

let patientSeq = 0;
/** A new patient (at a new center) of the project: form records reference a patient. */
async function patientIn(projectId: string): Promise<string> {
  const [org] = await t.db
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.tenantId, h001))
    .limit(1);
  patientSeq += 1;
  const code = `T${patientSeq}`;
  const [center] = await t.db
    .insert(centers)
    .values({ tenantId: h001, projectId, organisationId: org?.id ?? '', code, name: '测试中心' })
    .returning({ id: centers.id });
  const [patient] = await t.db
    .insert(patients)
    .values({
      tenantId: h001,
      projectId,
      centerId: center?.id ?? '',
      seq: patientSeq,
      patientNo: `${code}-${String(patientSeq).padStart(4, '0')}`,
      name: '测试患者',
    })
    .returning({ id: patients.id });
  return patient?.id ?? '';
}

const getDraft = async (token: string) =>
  (await t.api({ method: 'GET', url: '/form-definition/draft', token })).json<Body<DraftResponse>>();
const save = (token: string, revision: number, definition: Definition) =>
  t.api({ method: 'PUT', url: '/form-definition/draft', token, payload: { revision, definition } });
const publish = (token: string, payload: { revision: number; note?: string; confirmDataLoss?: boolean }) =>
  t.api({ method: 'POST', url: '/form-definition/publish', token, payload });
const check = (token: string, payload: { versionId: string; formKey: string; data: unknown; mode?: string }) =>
  t.api({ method: 'POST', url: '/form-record/check', token, payload });

/** A small valid definition: one form with a number, a choice and a rule. */
function sampleDefinition(label = '体重'): Definition {
  return {
    missingCodes: DEFAULT_MISSING_CODES,
    categories: [
      {
        key: 'base',
        title: '基线',
        forms: [
          {
            key: 'visit',
            title: '访视',
            fields: [
              { key: 'weight', label, type: 'decimal', unit: 'kg', min: 20, max: 300, required: true },
              { key: 'height', label: '身高', type: 'decimal', unit: 'cm' },
              {
                key: 'status',
                label: '状态',
                type: 'radio',
                options: [
                  { code: 'a', label: '甲' },
                  { code: 'b', label: '乙' },
                ],
              },
              {
                key: 'note',
                label: '备注',
                type: 'text',
                showIf: "[status] = 'b'",
                rules: [{ expr: '[weight] > 30', message: '体重过低', level: 'hard' }],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** Saves a definition on top of the current draft and publishes it; returns the new version. */
async function saveAndPublish(token: string, definition: Definition, extra: { confirmDataLoss?: boolean } = {}) {
  const draft = await getDraft(token);
  const saved = await save(token, draft.data.revision, definition);
  expect(saved.statusCode, saved.body).toBe(200);
  const revision = saved.json<Body<{ revision: number }>>().data.revision;
  return publish(token, { revision, ...extra });
}

beforeAll(async () => {
  t = await createBareTestApp();
  // The heart-failure study's databases, made through the API: HF-REG (v1 published, a draft with one unpublished
  // change), its sub-project HF-REG-HFPEF (its own forms) and T2DM-FU, all of the hospital administrator 王主任;
  // `entry` is a data-entry member of HF-REG.
  const h = await hospital(t, { tenant: { code: 'h001' }, admin: { name: '王主任' } });
  h001 = h.tenantId;
  ownerAccount = h.admin;
  ownerId = h.admin.id;
  const hf = await project(t, h.admin, { code: 'HF-REG', name: '心力衰竭注册登记研究' });
  hfId = hf.id;
  await publishCrf(t, h.admin.token, HF_REG_DEFINITION);
  const draft = await getDraft(h.admin.token);
  expect((await save(h.admin.token, draft.data.revision, HF_REG_DRAFT)).statusCode).toBe(200);
  hfpefId = (await project(t, h.admin, { code: 'HF-REG-HFPEF', parentId: hf.id })).id;
  await publishCrf(t, h.admin.token, HFPEF_DEFINITION);
  await project(t, h.admin, { code: 'T2DM-FU' });
  await publishCrf(t, h.admin.token, T2DM_DEFINITION);
  entryAccount = await member(t, hf, 'data_entry');
  owner = await t.login(ownerAccount.username, ownerAccount.password);
  entry = await t.login(entryAccount.username, entryAccount.password);
  await enter(owner, hfId);
  await enter(entry, hfId);
});
afterAll(async () => {
  await t?.close();
});

describe('GET form-definition/draft', () => {
  it('should create an empty draft at revision 0 when a project without a database is first opened', async () => {
    const { token, projectId } = await freshProject();
    const body = await getDraft(token);
    expect(body.status).toBe(200);
    expect(body.data).toMatchObject({
      projectId,
      revision: 0,
      definition: { categories: [], missingCodes: DEFAULT_MISSING_CODES },
      problems: [],
      unpublishedChanges: false,
      latestVersion: null,
      parent: null,
    });
    expect((await getDraft(token)).data.revision).toBe(0);
  });

  it('should show the heart-failure database with its published version and one unpublished change', async () => {
    const body = await getDraft(owner);
    expect(body.data.problems).toEqual([]);
    expect(body.data.unpublishedChanges).toBe(true);
    expect(body.data.latestVersion).toMatchObject({ versionNo: 1, publishedByName: '王主任' });
    expect(body.data.definition.categories.map((c) => c.title)).toEqual(['基线资料', '检查检验', '治疗', '随访']);
    const preview = (await t.api({ method: 'GET', url: '/form-definition/publish-preview', token: owner })).json<
      Body<PublishPreviewResponse>
    >();
    expect(preview.data.nextVersionNo).toBe(2);
    expect(preview.data.changes).toHaveLength(1);
    expect(preview.data.changes[0]).toMatchObject({ kind: 'added', entity: 'field', fieldKey: 'waist' });
  });

  it('should refuse the designer calls with 403 when the member lacks database.config', async () => {
    const res = await t.api({ method: 'GET', url: '/form-definition/draft', token: entry });
    expect(res.statusCode).toBe(403);
  });
});

describe('PUT form-definition/draft', () => {
  it('should save, bump the revision and refuse a save from a stale revision with 409', async () => {
    const { token } = await freshProject();
    await getDraft(token);
    const first = await save(token, 0, sampleDefinition());
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<Body<{ revision: number; unpublishedChanges: boolean }>>().data).toMatchObject({
      revision: 1,
      problems: [],
      unpublishedChanges: true,
    });
    const stale = await save(token, 0, sampleDefinition('体重（kg）'));
    expect(stale.statusCode).toBe(409);
    expect(stale.json<Body>().message).toBe('数据库已被他人修改，请刷新后重试');
    const draft = await getDraft(token);
    expect(draft.data.revision).toBe(1);
    expect(draft.data.definition.categories[0]?.forms[0]?.fields[0]?.label).toBe('体重');
    expect(draft.data.updatedByName).toBe('王主任');
  });

  it('should save a draft with problems and return them with their paths and positions', async () => {
    const { token } = await freshProject();
    const broken = sampleDefinition();
    const note = broken.categories[0]?.forms[0]?.fields[3];
    if (note) note.showIf = "[status] = 'b' and";
    const res = await save(token, 0, broken);
    expect(res.statusCode).toBe(200);
    const problems = res.json<Body<{ problems: DefinitionProblem[] }>>().data.problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      path: 'categories.0.forms.0.fields.3.showIf',
      formKey: 'visit',
      fieldKey: 'note',
    });
    expect(problems[0]?.position).toEqual(expect.any(Number));
    expect((await getDraft(token)).data.problems).toEqual(problems);
  });

  it('should refuse a definition that does not fit the schema with 400 and the field path', async () => {
    const { token } = await freshProject();
    const res = await save(token, 0, {
      ...sampleDefinition(),
      categories: [{ key: 'Bad Key', title: '', forms: [] }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['definition.categories.0.key']),
    );
  });
});

describe('POST form-definition/publish', () => {
  it('should refuse to publish a draft with problems, naming each problem path', async () => {
    const { token } = await freshProject();
    const broken = sampleDefinition();
    const weight = broken.categories[0]?.forms[0]?.fields[0];
    if (weight) weight.min = 500;
    const res = await saveAndPublish(token, broken);
    expect(res.statusCode).toBe(400);
    const body = res.json<Body>();
    expect(body.message).toBe('数据库存在错误，无法发布');
    expect(body.issues).toEqual([{ path: 'categories.0.forms.0.fields.0.min', message: expect.any(String) }]);
    expect((await getDraft(token)).data.latestVersion).toBeNull();
  });

  it('should refuse to publish a format pattern RE2 cannot run, and check a hostile one in linear time', async () => {
    const { token } = await freshProject();
    const definition = sampleDefinition();
    const fields = definition.categories[0]?.forms[0]?.fields ?? [];
    fields.push({
      key: 'code',
      label: '住院号',
      type: 'text',
      pattern: { regex: '(?=.*\\d)\\w+', message: '住院号格式不正确', level: 'hard' },
    });
    const refused = await saveAndPublish(token, definition);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Body>().issues).toEqual([
      {
        path: 'categories.0.forms.0.fields.4.pattern.regex',
        message: '「住院号」(code)的正则表达式不能使用前瞻断言（(?=…)、(?!…)）：(?=.*\\d)\\w+',
      },
    ]);
    expect((await getDraft(token)).data.latestVersion).toBeNull();

    // A pattern that backtracks for minutes in a JavaScript RegExp on 26 characters: published, and checked.
    const code = fields[4];
    if (code) code.pattern = { regex: '^a*a*a*a*a*a*a*a*a*a*a*a*$', message: '住院号格式不正确', level: 'hard' };
    const published = await saveAndPublish(token, definition);
    expect(published.statusCode, published.body).toBe(200);
    const version = published.json<Body<VersionSummary>>().data;
    // 41 characters: a backtracking engine would need far longer than the test's timeout, so the call could not return;
    // RE2 answers in linear time (its speed is measured by the shared pattern tests and the bench, not here).
    const verdict = await check(token, {
      versionId: version.id,
      formKey: 'visit',
      data: { weight: 60, code: `${'a'.repeat(40)}!` },
      mode: 'draft',
    });
    expect(verdict.statusCode, verdict.body).toBe(200);
    expect(verdict.json<Body<RecordCheckResponse>>().data.issues).toEqual([
      expect.objectContaining({ fieldKey: 'code', message: '住院号格式不正确', level: 'hard' }),
    ]);
  });

  it('should refuse to publish a variable name used twice, at the second field, and publish nothing', async () => {
    const { token } = await freshProject();
    const twice = sampleDefinition();
    const height = twice.categories[0]?.forms[0]?.fields[1];
    if (height) height.key = 'weight';
    const res = await saveAndPublish(token, twice);
    expect(res.statusCode).toBe(400);
    const body = res.json<Body>();
    expect(body.message).toBe('数据库存在错误，无法发布');
    expect(body.issues).toEqual([
      {
        path: 'categories.0.forms.0.fields.1.key',
        message: '变量名 weight 重复：已被表单「访视」的字段「体重」使用',
      },
    ]);
    expect((await getDraft(token)).data.latestVersion).toBeNull();
  });

  it('should publish v1 then v2 with a readable diff, newest first, and refuse an unchanged draft', async () => {
    const { token } = await freshProject();
    const v1 = await saveAndPublish(token, sampleDefinition());
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json<Body<VersionSummary>>().data).toMatchObject({
      versionNo: 1,
      formCount: 1,
      fieldCount: 4,
      publishedByName: '王主任',
    });

    const unchanged = await publish(token, { revision: (await getDraft(token)).data.revision });
    expect(unchanged.statusCode).toBe(400);
    expect(unchanged.json<Body>().message).toBe('没有需要发布的修改');

    const v2 = await saveAndPublish(token, sampleDefinition('体重（kg）'));
    expect(v2.statusCode, v2.body).toBe(200);
    const list = (await t.api({ method: 'GET', url: '/form-definition/versions', token })).json<
      Body<VersionSummary[]>
    >();
    expect(list.data.map((v) => [v.versionNo, v.changeCount])).toEqual([
      [2, 1],
      [1, 4 + 2],
    ]);
    const detail = (await t.api({ method: 'GET', url: `/form-definition/version?id=${list.data[0]?.id}`, token })).json<
      Body<VersionDetailResponse>
    >();
    expect(detail.data.changes).toEqual([
      expect.objectContaining({
        kind: 'changed',
        entity: 'field',
        fieldKey: 'weight',
        property: 'label',
        breaking: false,
        summary: expect.stringContaining('体重（kg）'),
      }),
    ]);
    expect(detail.data.definition.categories[0]?.forms[0]?.fields[0]?.label).toBe('体重（kg）');
    expect((await getDraft(token)).data.unpublishedChanges).toBe(false);
  });

  it('should ask for confirmation before orphaning entered data, then publish when confirmed', async () => {
    const { token, projectId } = await freshProject();
    const v1 = (await saveAndPublish(token, sampleDefinition())).json<Body<VersionSummary>>().data;
    await t.db.insert(formRecords).values({
      tenantId: h001,
      projectId,
      patientId: await patientIn(projectId),
      formKey: 'visit',
      versionId: v1.id,
      data: { weight: 70, status: 'a' },
    });
    // removing the option 'a' that a record holds, and the field height that no record holds
    const next = sampleDefinition();
    const form = next.categories[0]?.forms[0];
    if (!form) throw new Error('sample form missing');
    form.fields = form.fields.filter((f) => f.key !== 'height');
    const status = form.fields.find((f) => f.key === 'status');
    if (status) status.options = [{ code: 'b', label: '乙' }];
    const draft = await getDraft(token);
    const saved = (await save(token, draft.data.revision, next)).json<Body<{ revision: number }>>().data;

    const preview = (await t.api({ method: 'GET', url: '/form-definition/publish-preview', token })).json<
      Body<PublishPreviewResponse>
    >();
    expect(preview.data.dataLoss).toEqual([
      { change: expect.objectContaining({ fieldKey: 'status', breaking: true }), recordCount: 1 },
    ]);
    const refused = await publish(token, { revision: saved.revision });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Body>().message).toBe('本次发布会影响已录入的数据，请确认后再发布');

    const confirmed = await publish(token, { revision: saved.revision, confirmDataLoss: true, note: '删除选项甲' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<Body<VersionSummary>>().data).toMatchObject({ versionNo: 2, note: '删除选项甲' });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'form_definition.publish'),
          eq(auditEvents.entityId, confirmed.json<Body<VersionSummary>>().data.id),
        ),
      );
    expect(event?.newValue).toMatchObject({
      projectId,
      versionNo: 2,
      note: '删除选项甲',
      confirmedDataLoss: [{ recordCount: 1, summary: expect.any(String) }],
    });
  });

  it('should count the records holding a removed group column or a removed checkbox code, and only those', async () => {
    const { token, projectId } = await freshProject();
    const withGroup = (columns: string[], codes: string[]): Definition => ({
      missingCodes: DEFAULT_MISSING_CODES,
      categories: [
        {
          key: 'tx',
          title: '治疗',
          forms: [
            {
              key: 'meds_form',
              title: '用药',
              fields: [
                {
                  key: 'meds',
                  label: '用药',
                  type: 'group',
                  fields: columns.map((key) => ({ key, label: key, type: 'text' as const })),
                },
                {
                  key: 'routes',
                  label: '途径',
                  type: 'checkbox',
                  options: codes.map((code) => ({ code, label: code })),
                },
              ],
            },
          ],
        },
      ],
    });
    const v1 = (await saveAndPublish(token, withGroup(['drug', 'dose', 'note'], ['po', 'iv', 'im']))).json<
      Body<VersionSummary>
    >().data;
    const record = async (data: Record<string, unknown>) => ({
      tenantId: h001,
      projectId,
      patientId: await patientIn(projectId),
      formKey: 'meds_form',
      versionId: v1.id,
      data,
    });
    await t.db
      .insert(formRecords)
      .values([
        await record({ meds: [{ drug: '呋塞米', dose: '' }], routes: ['po', 'iv'] }),
        await record({ meds: [{ drug: '螺内酯' }, { drug: '地高辛', note: null }], routes: ['po'] }),
        await record({}),
      ]);
    const draft = await getDraft(token);
    // dose and note hold no value anywhere; drug is held by two records; iv by one, im by none
    await save(token, draft.data.revision, withGroup(['dose'], ['po']));
    const preview = (await t.api({ method: 'GET', url: '/form-definition/publish-preview', token })).json<
      Body<PublishPreviewResponse>
    >();
    expect(preview.data.dataLoss.map((d) => [d.change.fieldKey, d.recordCount])).toEqual(
      expect.arrayContaining([
        ['meds.drug', 2],
        ['routes', 1],
      ]),
    );
    expect(preview.data.dataLoss).toHaveLength(2);
  });

  it('should answer 409 on a stale revision', async () => {
    const { token } = await freshProject();
    await save(token, 0, sampleDefinition());
    const res = await publish(token, { revision: 0 });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('数据库已被他人修改，请刷新后重试');
  });
});

describe('a locked or archived project', () => {
  it('should refuse save, publish and discard with 409 and keep the draft as it was', async () => {
    for (const status of ['locked', 'archived'] as const) {
      const { token, projectId } = await freshProject();
      await getDraft(token);
      await save(token, 0, sampleDefinition());
      await t.db.update(projects).set({ status }).where(eq(projects.id, projectId));
      const refused = [
        await save(token, 1, sampleDefinition('体重（kg）')),
        await publish(token, { revision: 1 }),
        await t.api({ method: 'POST', url: '/form-definition/discard-draft', token, payload: { revision: 1 } }),
      ];
      for (const res of refused) {
        expect(res.statusCode, status).toBe(409);
        expect(res.json<Body>().message).toBe('项目已锁定或归档，数据库不能修改');
      }
      const draft = await getDraft(token);
      expect(draft.data.revision).toBe(1);
      expect(draft.data.definition.categories[0]?.forms[0]?.fields[0]?.label).toBe('体重');
    }
  });
});

describe('versions are immutable', () => {
  it('should refuse an SQL UPDATE or DELETE of a published version', async () => {
    const [version] = await t.db.select().from(formVersions).where(eq(formVersions.projectId, hfId));
    await expect(
      t.database.pool.query("update form_versions set note = 'x' where id = $1", [version?.id]),
    ).rejects.toThrow(/immutable/);
    await expect(t.database.pool.query('delete from form_versions where id = $1', [version?.id])).rejects.toThrow(
      /immutable/,
    );
  });
});

describe('POST form-definition/discard-draft', () => {
  it('should put the latest version back into the draft and audit it', async () => {
    const { token, projectId } = await freshProject();
    await saveAndPublish(token, sampleDefinition());
    const draft = await getDraft(token);
    await save(token, draft.data.revision, sampleDefinition('改过的体重'));
    const res = await t.api({
      method: 'POST',
      url: '/form-definition/discard-draft',
      token,
      payload: { revision: draft.data.revision + 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<Body<DraftResponse>>().data;
    expect(after.unpublishedChanges).toBe(false);
    expect(after.definition.categories[0]?.forms[0]?.fields[0]?.label).toBe('体重');
    const actions = (
      await t.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, projectId))
    ).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['form_definition.save', 'form_definition.discard']));
  });
});

describe('sub-projects', () => {
  it("should show a sub-project its parent's latest version and its own forms", async () => {
    const token = await t.login(ownerAccount.username, ownerAccount.password);
    await enter(token, hfpefId);
    const draft = (await getDraft(token)).data;
    expect(draft.parent).toMatchObject({ projectName: '心力衰竭注册登记研究', versionNo: 1 });
    expect(draft.parent?.definition.categories.map((c) => c.key)).toContain('baseline');
    expect(draft.problems).toEqual([]);
    const published = (await t.api({ method: 'GET', url: '/form-definition/published', token })).json<
      Body<PublishedResponse>
    >();
    expect(published.data.own?.projectId).toBe(hfpefId);
    expect(published.data.parent).toMatchObject({ projectId: hfId, versionNo: 1 });
    // a record on a parent's form, checked against the parent's version
    const verdict = await check(token, {
      versionId: published.data.parent?.versionId ?? '',
      formKey: 'vital_signs',
      data: { height: 170, weight: 65, sbp: 120, dbp: 80 },
    });
    expect(verdict.statusCode, verdict.body).toBe(200);
    expect(verdict.json<Body<RecordCheckResponse>>().data).toMatchObject({ valid: true, data: { bmi: 22.5 } });
  });

  it("should give any member a published version of the project or its parent by id, and 404 for another project's", async () => {
    const token = await t.login(entryAccount.username, entryAccount.password);
    await enter(token, hfId);
    const published = (await t.api({ method: 'GET', url: '/form-definition/published', token })).json<
      Body<PublishedResponse>
    >().data;
    const versionId = published.own?.versionId ?? '';
    const res = await t.api({ method: 'GET', url: `/form-definition/published-version?id=${versionId}`, token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Body<PublishedResponse['own']>>().data).toMatchObject({ versionId, versionNo: 1, projectId: hfId });
    expect(res.json<Body<NonNullable<PublishedResponse['own']>>>().data.definition.categories.length).toBeGreaterThan(
      0,
    );

    const [other] = await t.db
      .select({ id: formVersions.id })
      .from(formVersions)
      .innerJoin(projects, eq(projects.id, formVersions.projectId))
      .where(eq(projects.code, 'T2DM-FU'));
    const foreign = await t.api({ method: 'GET', url: `/form-definition/published-version?id=${other?.id}`, token });
    expect(foreign.json<Body>()).toMatchObject({ status: 404, message: '版本不存在' });
  });

  it("should report a key already used by the parent's forms as a problem", async () => {
    const { token } = await freshProject(hfId);
    const clash = sampleDefinition();
    const form = clash.categories[0]?.forms[0];
    if (form) form.fields.push({ key: 'lvef', label: 'LVEF', type: 'decimal' });
    const res = await save(token, 0, clash);
    const problems = res.json<Body<{ problems: DefinitionProblem[] }>>().data.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'categories.0.forms.0.fields.4.key',
          fieldKey: 'lvef',
          message: expect.stringContaining('上级项目'),
        }),
      ]),
    );
  });
});

describe('parent and sub-project keys', () => {
  it("should report a parent's new key that a sub-project already published", async () => {
    const { token: parentToken, projectId } = await freshProject();
    const child = await freshProject(projectId);
    const own: Definition = {
      missingCodes: DEFAULT_MISSING_CODES,
      categories: [
        {
          key: 'sub',
          title: '亚组',
          forms: [{ key: 'sub_form', title: '亚组评估', fields: [{ key: 'score', label: '评分', type: 'integer' }] }],
        },
      ],
    };
    expect((await saveAndPublish(child.token, own)).statusCode).toBe(200);
    const parent = sampleDefinition();
    parent.categories[0]?.forms[0]?.fields.push({ key: 'score', label: '总分', type: 'integer' });
    const res = await saveAndPublish(parentToken, parent);
    expect(res.statusCode).toBe(400);
    expect(res.json<Body>().issues).toEqual([
      { path: 'categories.0.forms.0.fields.4.key', message: expect.stringContaining('已被子项目') },
    ]);
  });
});

describe('isolation', () => {
  it("should answer another tenant's or project's version id exactly like a missing one", async () => {
    const other = await buildTenant(t.db);
    const otherOwner = await buildUser(t.db, other.tenant.id);
    const otherProject = await buildProject(t.db, other.tenant.id, otherOwner.id);
    const [foreign] = await t.db
      .insert(formVersions)
      .values({
        tenantId: other.tenant.id,
        projectId: otherProject.id,
        versionNo: 1,
        definition: sampleDefinition(),
        changes: [],
        publishedBy: otherOwner.id,
      })
      .returning();
    const [t2dmVersion] = await t.db
      .select()
      .from(formVersions)
      .where(eq(formVersions.projectId, await idOfProject('T2DM-FU')));
    const missing = randomUUID();
    for (const id of [foreign?.id, t2dmVersion?.id, missing]) {
      const detail = await t.api({ method: 'GET', url: `/form-definition/version?id=${id}`, token: owner });
      expect(detail.statusCode).toBe(404);
      expect(detail.json<Body>().message).toBe('版本不存在');
      const verdict = await check(entry, { versionId: id ?? '', formKey: 'visit', data: {} });
      expect(verdict.statusCode).toBe(404);
      expect(verdict.json<Body>().message).toBe('版本不存在');
    }
  });
});

/** A code of the built-in ICD-10 list. */
async function someIcd10Code(): Promise<string> {
  const [row] = await t.db
    .select({ code: fieldDictOptions.code })
    .from(fieldDictOptions)
    .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
    .where(and(eq(fieldDicts.code, 'icd10'), isNull(fieldDicts.tenantId), eq(fieldDictOptions.enabled, true)))
    .limit(1);
  if (!row) throw new Error('built-in icd10 list missing');
  return row.code;
}

describe('POST form-record/check', () => {
  const hfVersion = async () => {
    const published = (await t.api({ method: 'GET', url: '/form-definition/published', token: entry })).json<
      Body<PublishedResponse>
    >();
    return published.data.own?.versionId ?? '';
  };

  it('should refuse what the engine refuses: a cross-field rule, a range, an unknown dictionary code', async () => {
    const versionId = await hfVersion();
    const vitals = await check(entry, {
      versionId,
      formKey: 'vital_signs',
      data: { height: 170, weight: 400, sbp: 80, dbp: 90 },
    });
    expect(vitals.statusCode, vitals.body).toBe(200);
    const verdict = vitals.json<Body<RecordCheckResponse>>().data;
    expect(verdict.valid).toBe(false);
    expect(verdict.issues.map((i) => [i.path, i.level])).toEqual(
      expect.arrayContaining([
        ['weight', 'hard'],
        ['dbp', 'hard'],
      ]),
    );
    const demo = await check(entry, {
      versionId,
      formKey: 'demographics',
      data: { name: '张三', gender: 'X9', birth_date: '1960-05-01' },
    });
    const demoVerdict = demo.json<Body<RecordCheckResponse>>().data;
    expect(demoVerdict.valid).toBe(false);
    expect(demoVerdict.issues.map((i) => i.path)).toEqual(['gender']);
    expect(demoVerdict.data.age).toEqual(expect.any(Number));
  });

  it('should accept a valid record, compute its calculations and clear hidden fields', async () => {
    const versionId = await hfVersion();
    const res = await check(entry, {
      versionId,
      formKey: 'medical_history',
      data: { smoking: '0', smoking_years: 10, primary_diagnosis: await someIcd10Code() },
    });
    const verdict = res.json<Body<RecordCheckResponse>>().data;
    expect(verdict).toMatchObject({ valid: true, issues: [] });
    expect(verdict.data.smoking_years).toBeUndefined();
  });

  it('should skip required checks in draft mode only', async () => {
    const versionId = await hfVersion();
    const submit = await check(entry, { versionId, formKey: 'vital_signs', data: {}, mode: 'submit' });
    expect(submit.json<Body<RecordCheckResponse>>().data.valid).toBe(false);
    const draft = await check(entry, { versionId, formKey: 'vital_signs', data: {}, mode: 'draft' });
    expect(draft.json<Body<RecordCheckResponse>>().data.valid).toBe(true);
  });

  it('should answer 404 表单不存在 for a form the version does not have', async () => {
    const res = await check(entry, { versionId: await hfVersion(), formKey: 'nope', data: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json<Body>().message).toBe('表单不存在');
  });
});

describe('audit', () => {
  it('should audit a save with a summary, not the whole definition', async () => {
    const { token, projectId } = await freshProject();
    await save(token, 0, sampleDefinition());
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'form_definition.save'), eq(auditEvents.entityId, projectId)));
    expect(event).toMatchObject({ entityType: 'form_draft' });
    expect(event?.newValue).toEqual({ projectId, revision: 1, formCount: 1, fieldCount: 4 });
  });

  it('should keep the changes of a published version as a list of readable entries', async () => {
    const [version] = await t.db.select().from(formVersions).where(eq(formVersions.projectId, hfId));
    const changes = version?.changes as DefinitionChange[];
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.kind === 'added' && c.summary.length > 0)).toBe(true);
  });
});
