import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBareTestApp, type TestApp } from './test-app';
import type { Definition } from '@registry/shared/forms/definition';
import { center, crfDefinition, followupPlan, hospital, member, patient, project, publishCrf } from './factories';

let t: TestApp;
beforeAll(async () => {
  t = await createBareTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the scenario API on a bare test app', () => {
  it('should start with the reference data only: built-in roles and menus, no tenant, user or project', async () => {
    expect(await countRows(t, 'roles')).toBeGreaterThan(0);
    expect(await countRows(t, 'menu_items')).toBeGreaterThan(0);
    expect(await countRows(t, 'tenants')).toBe(0);
    expect(await countRows(t, 'users')).toBe(0);
    expect(await countRows(t, 'projects')).toBe(0);
  });

  it('should make a project with its owner, a member at a center, a published CRF and a patient', async () => {
    const h = await hospital(t);
    const p = await project(t, h.admin);
    const north = await center(t, p, { name: '北院' });
    const entry = await member(t, p, 'data_entry', { centerId: north.id });
    const version = await publishCrf(
      t,
      p.owner.token,
      crfDefinition({ visit: [{ key: 'w', label: '体重', type: 'decimal' }] }),
    );
    const created = await patient(t, entry.token, { name: '王五' });

    const list = await t.api({ method: 'POST', url: '/web-project/list', token: p.owner.token, payload: {} });
    expect(
      list.json<{ data: { projectVOs: { projectCode: string; projectName: string }[] } }>().data.projectVOs,
    ).toEqual([expect.objectContaining({ projectCode: p.code, projectName: p.name })]);
    expect(p.defaultCenterId).not.toBe('');
    expect(version.versionNo).toBe(1);
    expect(created.centerId).toBe(north.id);
    const members = await t.api({ method: 'POST', url: '/project-member/page', token: p.owner.token, payload: {} });
    const rows = members.json<{ data: { records: { username: string; roleName: string; owner: boolean }[] } }>().data
      .records;
    expect(rows.map((r) => [r.username, r.owner]).sort()).toEqual(
      [
        [h.admin.username, true],
        [entry.username, false],
      ].sort(),
    );
    const published = await t.api({ method: 'GET', url: '/form-definition/published', token: entry.token });
    expect(published.statusCode).toBe(200);
    expect(JSON.stringify(published.json())).toContain('体重');
  });

  it('should publish a titled repeating form given as a form, beside one given as its fields', async () => {
    const h = await hospital(t);
    const p = await project(t, h.admin);
    await publishCrf(
      t,
      p.owner.token,
      crfDefinition({
        visit: {
          title: '随访记录',
          repeating: true,
          followUp: true,
          fields: [{ key: 'fu_date', label: '随访日期', type: 'date' }],
        },
        labs: [{ key: 'hb', label: '血红蛋白', type: 'decimal' }],
      }),
    );
    const res = await t.api({ method: 'GET', url: '/form-definition/published', token: p.owner.token });
    expect(res.statusCode, res.body).toBe(200);
    const forms = res.json<{ data: { own: { definition: Definition } } }>().data.own.definition.categories[0]?.forms;
    expect(forms?.map((f) => [f.key, f.title, f.repeating ?? false, f.followUp ?? false])).toEqual([
      ['visit', '随访记录', true, true],
      ['labs', 'labs', false, false],
    ]);
  });

  it('should make a follow-up plan, activated by default, and a draft one when told', async () => {
    const h = await hospital(t);
    const p = await project(t, h.admin);
    const enrolled = await patient(t, p.owner.token, { centerId: p.defaultCenterId, enrolDate: '2026-01-31' });
    const { plan, applied } = await followupPlan(t, p.owner.token, { assignMode: 'auto', rule: { subProjectIds: [] } });
    expect(plan).toMatchObject({ status: 'active', kind: 'relative', anchorLabel: '入组日期', patientCount: 1 });
    expect(applied).toEqual({ assigned: 1, tasksCreated: 1, waitingForAnchor: 0, stopped: 0 });
    const tasks = await t.api({
      method: 'POST',
      url: '/followup/task/page',
      token: p.owner.token,
      payload: { current: 1, size: 10, patientId: enrolled.id },
    });
    expect(tasks.statusCode, tasks.body).toBe(200);
    expect(
      tasks.json<{ data: { records: { planName: string; visitName: string; dueDate: string }[] } }>().data.records,
    ).toEqual([expect.objectContaining({ planName: plan.name, visitName: '1个月随访', dueDate: '2026-02-28' })]);
    const draft = await followupPlan(t, p.owner.token, { name: '草稿计划' }, { activate: false });
    expect(draft).toMatchObject({ plan: { name: '草稿计划', status: 'draft' }, applied: null });
  });
});
