import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveMigrationsFolder } from '../src/db/migrate';
import { createTestDatabase, type TestDatabase } from './db';

describe('server test harness', () => {
  let a: TestDatabase;
  let b: TestDatabase;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('should give each caller its own database when two are created at once', async () => {
    const [{ rows: ra }, { rows: rb }] = await Promise.all([
      a.pool.query<{ db: string }>('SELECT current_database() AS db'),
      b.pool.query<{ db: string }>('SELECT current_database() AS db'),
    ]);
    expect(ra[0]?.db).not.toBe(rb[0]?.db);
    expect(ra[0]?.db.startsWith(inject('testDb').templateDatabase)).toBe(true);
  });

  it('should not show a table created in one database to another when both come from the template', async () => {
    // the owner creates it: the app's role may not create tables (ADR 0015)
    await a.ownerPool().query('CREATE TABLE harness_probe (note text NOT NULL)');
    await a.ownerPool().query("INSERT INTO harness_probe (note) VALUES ('随访记录')");
    const { rows } = await a.ownerPool().query<{ note: string }>('SELECT note FROM harness_probe');
    expect(rows).toEqual([{ note: '随访记录' }]);
    const { rows: other } = await b.pool.query<{ t: string | null }>("SELECT to_regclass('harness_probe')::text AS t");
    expect(other[0]?.t).toBeNull();
  });

  it('should have every journal entry applied when the template was migrated', async () => {
    const journalPath = path.join(resolveMigrationsFolder(), 'meta', '_journal.json');
    const entries = existsSync(journalPath)
      ? (JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] }).entries.length
      : 0;
    const { rows } = await a.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'drizzle' AND tablename = '__drizzle_migrations'",
    );
    if (entries === 0) {
      expect(rows[0]?.n).toBe(0);
      return;
    }
    const { rows: applied } = await a
      .ownerPool()
      .query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(applied[0]?.n).toBe(entries);
  });

  it('should drop the database when close() is called', async () => {
    const c = await createTestDatabase();
    const name = new URL(c.connectionString).pathname.slice(1);
    await c.close();
    const { rows } = await a.pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    expect(rows).toHaveLength(0);
  });
});
