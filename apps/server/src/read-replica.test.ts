import { APP_CODE } from '@registry/shared/constants';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hospital, project, type TestProject } from '../test/factories';
import { asRole, ensureTestReaderRole, TEST_READER_ROLE } from '../test/pg-admin';
import { createBareTestApp, type TestApp } from '../test/test-app';
import { buildApp } from './app';
import { closePool, createPool } from './db/pool';

/**
 * DATABASE_REPLICA_URL (ADR 0015): the app reads its exports through a second pool. Here that pool is the same
 * database through a role that may only SELECT — a write sent there would fail — so an export that works and is
 * audited proves the reads went to the replica and the write to the primary.
 */
let t: TestApp;
let app: FastifyInstance;
let readPool: pg.Pool;
let p: TestProject;
beforeAll(async () => {
  t = await createBareTestApp();
  const password = await ensureTestReaderRole(inject('testDb').adminUrl);
  const owner = t.database.ownerPool();
  await owner.query(`GRANT USAGE ON SCHEMA public TO ${TEST_READER_ROLE}`);
  await owner.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${TEST_READER_ROLE}`);
  readPool = createPool(asRole(t.database.ownerConnectionString, TEST_READER_ROLE, password), { max: 2 });
  app = await buildApp({ config: t.config, pool: t.database.pool, readPool, clock: t.clock });
  await app.ready();
  p = await project(t, (await hospital(t)).admin);
});
afterAll(async () => {
  await app?.close();
  if (readPool) await closePool(readPool);
  await t?.close();
});

const exportTasks = () =>
  app.inject({
    method: 'POST',
    url: '/api/cmdb-template/followup/task/export',
    headers: { 'x-app-code': APP_CODE, authorization: `Bearer ${p.owner.token}` },
    payload: {},
  });

const exportsAudited = async () =>
  (await t.database.pool.query("select 1 from audit_events where action = 'followup_task.export'")).rowCount ?? 0;

describe('a read replica', () => {
  it('should answer the follow-up export from the replica and audit it on the primary', async () => {
    const before = await exportsAudited();
    const res = await exportTasks();
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    expect(await exportsAudited()).toBe(before + 1);
  });

  it('should read the export there: without the replica’s right to read the tasks the export fails', async () => {
    const owner = t.database.ownerPool();
    await owner.query(`REVOKE SELECT ON followup_tasks FROM ${TEST_READER_ROLE}`);
    try {
      const before = await exportsAudited();
      expect((await exportTasks()).statusCode).toBe(500);
      expect(await exportsAudited()).toBe(before);
    } finally {
      await owner.query(`GRANT SELECT ON followup_tasks TO ${TEST_READER_ROLE}`);
    }
    expect((await exportTasks()).statusCode).toBe(200);
  });

  it('should send a write to the primary, and the replica’s role could not have taken it', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/cmdb-template/sys-user',
      headers: { 'x-app-code': APP_CODE, authorization: `Bearer ${p.owner.token}` },
      payload: { name: '副本测试' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.database.pool.query('select name from users where id = $1', [p.owner.id]);
    expect(rows[0]?.name).toBe('副本测试');
    await expect(readPool.query("update users set name = 'x' where id = $1", [p.owner.id])).rejects.toMatchObject({
      code: '42501',
    });
  });
});
