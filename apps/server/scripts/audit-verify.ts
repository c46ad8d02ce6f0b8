/**
 * `npm run audit:verify -w apps/server` (dev, tsx) or `node apps/server/dist/audit-verify.js` (built): verifies the
 * sealed audit trail of every tenant (ADR 0013) and prints, per chain, the valid seals, the events not sealed yet and
 * every problem found. Exit code 0 when no chain shows tampering, 1 when one does, 2 when the check cannot run.
 *
 * It needs the seal key (AUDIT_SEAL_KEY, else the key file of DATA_DIR on the embedded database) and the heads kept
 * outside the database, on the object storage the server uses (STORAGE_DRIVER and its settings: `audit-heads/` of
 * DATA_DIR/files or of the S3 bucket), so it is run with the server's configuration. The database: `DATABASE_URL`, else the embedded cluster under
 * `DATA_DIR/pg` — the running server's (read from its postmaster.pid and password file) or, when no server runs,
 * started for the check and stopped afterwards.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { createDb } from '../src/db/client';
import {
  DataDirectoryInUseError,
  passwordFilePath,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../src/db/embedded-postgres';
import { closePool, createPool } from '../src/db/pool';
import { resolveAuditSealKey } from '../src/lib/audit-seal-key';
import { createStorage } from '../src/lib/storage';
import { createStorageHeadStore } from '../src/modules/audit/audit-head-store';
import { formatSealReport, verifyAuditSeals } from '../src/modules/audit/audit-verify';

const quiet = { info: () => undefined, warn: () => undefined, error: (m: string) => process.stderr.write(`${m}\n`) };

async function connectionToRunningCluster(dataDir: string): Promise<string> {
  const pid = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  const port = Number.parseInt(pid.split('\n')[3] ?? '', 10);
  const password = (await readFile(passwordFilePath(dataDir), 'utf8')).trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/registry`;
}

async function main(): Promise<number> {
  const config = loadConfig();
  const key = await resolveAuditSealKey(config);
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const dataDir = path.join(config.dataDir, 'pg');
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
      throw new Error(`${dataDir} 中没有数据库（请设置 DATA_DIR 或 DATABASE_URL）/ no database in ${dataDir}`);
    }
    try {
      embedded = await startEmbeddedPostgres({ dataDir, port: config.embeddedPgPort, logger: quiet });
      url = embedded.connectionString;
    } catch (err) {
      if (!(err instanceof DataDirectoryInUseError)) throw err;
      url = await connectionToRunningCluster(dataDir);
    }
  }
  const pool = createPool(url, { max: 2, logger: quiet });
  const storage = createStorage(config.storage);
  try {
    const table = await pool.query<{ t: string | null }>("select to_regclass('audit_events')::text as t");
    if (!table.rows[0]?.t)
      throw new Error('数据库尚未初始化（没有 audit_events 表）/ the database has no audit_events table');
    const results = await verifyAuditSeals(createDb(pool), key, createStorageHeadStore(storage));
    for (const line of formatSealReport(results)) process.stdout.write(`${line}\n`);
    return results.every((r) => r.ok) ? 0 : 1;
  } finally {
    storage.close();
    await closePool(pool);
    if (embedded) await embedded.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `审计日志校验失败 / audit verification failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(2);
  },
);
