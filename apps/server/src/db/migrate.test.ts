import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { dropDatabase, quoteIdent, withClient, withDatabase } from '../../test/pg-admin';
import { resolveMigrationsFolder, runMigrations } from './migrate';

const { adminUrl, templateDatabase } = inject('testDb');
const created: string[] = [];

async function emptyDatabase(): Promise<string> {
  const name = `${templateDatabase}_m${created.length}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
  created.push(name);
  return withDatabase(adminUrl, name);
}

async function appliedCount(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    return rows[0]?.n ?? -1;
  });
}

function journalEntries(folder: string): number {
  return (JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] })
    .entries.length;
}

const folder = resolveMigrationsFolder();
const hasMigrations = existsSync(path.join(folder, 'meta', '_journal.json'));

describe('runMigrations', () => {
  afterAll(async () => {
    for (const name of created) await dropDatabase(adminUrl, name);
  });

  it.runIf(hasMigrations)('should apply every migration once when run twice on an empty database', async () => {
    const url = await emptyDatabase();
    await runMigrations(url);
    await runMigrations(url);
    expect(await appliedCount(url)).toBe(journalEntries(folder));
  });

  it.runIf(hasMigrations)('should apply the migrations once when two servers migrate at the same moment', async () => {
    const url = await emptyDatabase();
    await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    expect(await appliedCount(url)).toBe(journalEntries(folder));
  });

  it('should warn and change nothing when the folder has no migrations yet', async () => {
    const url = await emptyDatabase();
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-no-migrations-'));
    const warnings: string[] = [];
    try {
      await runMigrations(url, {
        migrationsFolder: empty,
        logger: { info: () => undefined, warn: (m) => warnings.push(m) },
      });
    } finally {
      await fs.rm(empty, { recursive: true, force: true });
    }
    expect(warnings.join('\n')).toContain('no migrations found');
    const schemas = await withClient(url, (c) =>
      c.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = 'drizzle'"),
    );
    expect(schemas.rowCount).toBe(0);
  });
});

describe('resolveMigrationsFolder', () => {
  const saved = process.env.MIGRATIONS_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.MIGRATIONS_DIR;
    else process.env.MIGRATIONS_DIR = saved;
  });

  it('should use MIGRATIONS_DIR when it is set', () => {
    process.env.MIGRATIONS_DIR = '/opt/registry/drizzle';
    expect(resolveMigrationsFolder()).toBe('/opt/registry/drizzle');
  });

  it.runIf(hasMigrations)('should find apps/server/drizzle from the source file when running from src', () => {
    delete process.env.MIGRATIONS_DIR;
    expect(resolveMigrationsFolder()).toBe(path.resolve(import.meta.dirname, '..', '..', 'drizzle'));
  });

  it('should find the drizzle folder next to dist when the server is bundled into dist/main.js', async () => {
    delete process.env.MIGRATIONS_DIR;
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'registry-bundle-'));
    try {
      await fs.mkdir(path.join(root, 'drizzle', 'meta'), { recursive: true });
      await fs.writeFile(path.join(root, 'drizzle', 'meta', '_journal.json'), '{"entries":[]}');
      await fs.mkdir(path.join(root, 'dist'));
      const moduleUrl = pathToFileURL(path.join(root, 'dist', 'main.js')).href;
      expect(resolveMigrationsFolder(moduleUrl)).toBe(path.join(root, 'drizzle'));
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
