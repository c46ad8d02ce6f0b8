import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { installJobQueueSchema } from './job-queue-schema';
import { markUnavailable } from './pool';

/** Arbitrary constant key of the advisory lock that serialises concurrent migration runs. */
const MIGRATION_LOCK_KEY = 724_310_001;

const JOURNAL = path.join('meta', '_journal.json');

/**
 * The folder of the Drizzle migrations (`apps/server/drizzle`):
 * `MIGRATIONS_DIR` when set; otherwise found relative to this module, which is `src/db/migrate.ts` in development
 * and tests, or `dist/main.js` when the server is bundled by esbuild.
 */
export function resolveMigrationsFolder(moduleUrl: string = import.meta.url): string {
  const fromEnv = process.env.MIGRATIONS_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const here = path.dirname(fileURLToPath(moduleUrl));
  const candidates = [
    path.resolve(here, '..', '..', 'drizzle'), // src/db/migrate.ts
    path.resolve(here, '..', 'drizzle'), // dist/main.js
    path.resolve(process.cwd(), 'drizzle'),
    path.resolve(process.cwd(), 'apps', 'server', 'drizzle'),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, JOURNAL))) ?? candidates[0]!;
}

export type MigrationLogger = { info(msg: string): void; warn(msg: string): void };

/**
 * Applies every pending migration, then installs or upgrades the job queue's schema (pg-boss, ADR 0014) and its
 * queues: both need the database owner, which is who runs this. Concurrent callers (two servers, parallel test
 * set-ups) are serialised by an advisory lock. A folder without migrations yet is not an error: it logs and returns.
 * `jobQueueGrantTo`: the app's role, when the app connects as another role than this (it gets row rights on pg-boss's
 * tables); `jobQueue: false` skips the job queue (a test of the Drizzle migrations alone).
 */
export async function runMigrations(
  connectionString: string,
  opts: {
    migrationsFolder?: string;
    logger?: MigrationLogger;
    /** Install or upgrade pg-boss's schema and queues (default true; ADR 0014). */
    jobQueue?: boolean;
    /** The role granted the job queue's tables (default `appRole`). */
    jobQueueGrantTo?: string;
    /**
     * The role the app connects as (ADR 0015): after the migrations, its grants are rebuilt by
     * `registry_grant_app_role` (migration app_role_grants), so tables added by any migration are covered. Unset when
     * the app connects as the owner itself.
     */
    appRole?: string;
  } = {},
): Promise<void> {
  const migrationsFolder = opts.migrationsFolder ?? resolveMigrationsFolder();
  if (!existsSync(path.join(migrationsFolder, JOURNAL))) {
    opts.logger?.warn(`no migrations found in ${migrationsFolder}; nothing to apply`);
    return;
  }
  const client = new pg.Client({ connectionString });
  // a connection lost mid-way fails the migration's query (start-up then stops with a message) instead of an
  // unhandled 'error' event killing the process
  client.on('error', (err) => opts.logger?.warn(`migration connection lost: ${err.message}`));
  try {
    await client.connect();
  } catch (err) {
    // no connection at all (refused, timed out, starting up, bad credentials): the caller may retry later
    await client.end().catch(() => undefined);
    throw err instanceof Error ? markUnavailable(err) : err;
  }
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder });
      if (opts.appRole) await client.query('SELECT registry_grant_app_role($1)', [opts.appRole]);
      if (opts.jobQueue !== false)
        await installJobQueueSchema(connectionString, { grantTo: opts.jobQueueGrantTo ?? opts.appRole });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
    opts.logger?.info(
      `migrations applied from ${migrationsFolder}${opts.appRole ? `; grants of app role ${opts.appRole} ensured` : ''}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
