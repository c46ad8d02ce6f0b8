import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createBareTestApp, type TestApp } from './test-app';
import { center, crfDefinition, hospital, member, patient, project, publishCrf } from './factories';

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
});
