/**
 * `npm run seed:bench -- --patients N [--seed S] [--batch B]`: adds N synthetic patients with their CRF records to the
 * benchmark project (created on first use: tenant `bench`, project `BENCH-HF`, accounts `bench_owner`,
 * `bench_monitor`, `bench_entry_c01`..`c05`, password `Bench@2026`). See src/db/bench-seed/bench-seed.ts.
 *
 * The database is the server's, as the owner of its tables (it drops and rebuilds indexes): `DATABASE_OWNER_URL` or
 * `DATABASE_URL` (then PHI_ENCRYPTION_KEY and PHI_BLIND_INDEX_KEY are required, as for
 * the server), else the embedded cluster under `DATA_DIR/pg` with the key file of DATA_DIR — started for the load
 * and stopped afterwards (stop the server first: a running one holds the data directory). Migrations and reference
 * data are brought up to date first, as `npm start` does. Prints progress and a JSON summary as its last line.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config/config';
import { createDb } from '../src/db/client';
import { seedBench } from '../src/db/bench-seed/bench-seed';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { closePool, createPool } from '../src/db/pool';
import { ensureReferenceData } from '../src/db/reference-data/ensure-reference-data';
import { seedReferenceData } from '../src/db/seed';
import { resolvePhiKeys } from '../src/lib/phi-crypto';

const quiet = { info: () => undefined, warn: () => undefined, error: (m: string) => process.stderr.write(`${m}\n`) };

function positiveInt(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new Error(`缺少参数 --${name}`);
  }
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} 应为正整数：${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      patients: { type: 'string' },
      seed: { type: 'string' },
      batch: { type: 'string' },
    },
  });
  const patients = positiveInt('patients', values.patients);
  const config = loadConfig();
  const keys = await resolvePhiKeys(config);
  let embedded: EmbeddedPostgres | undefined;
  // as the owner (DATABASE_OWNER_URL, else DATABASE_URL): the load drops and rebuilds indexes (ADR 0015)
  let url = config.databaseOwnerUrl ?? config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, 'pg'),
      port: config.embeddedPgPort,
      logger: quiet,
    });
    url = embedded.connectionString;
  }
  const pool = createPool(url, { max: 2, logger: quiet, applicationName: 'registry-seed-bench' });
  try {
    await runMigrations(url, { logger: quiet });
    const db = createDb(pool);
    await seedReferenceData(db);
    await ensureReferenceData(db);
    const report = await seedBench(pool, keys, {
      patients,
      seed: values.seed === undefined ? undefined : positiveInt('seed', values.seed),
      batchSize: positiveInt('batch', values.batch, 10_000),
      log: (l) => process.stdout.write(`${l}\n`),
    });
    process.stdout.write(
      `已导入 ${report.patients.toLocaleString('en-US')} 名患者、${report.records.toLocaleString('en-US')} 条表单记录，` +
        `用时 ${report.seconds.total} 秒（导入 ${report.seconds.load}，索引 ${report.seconds.indexes}，` +
        `VACUUM ANALYZE ${report.seconds.vacuum}）；患者序号 ${report.firstSeq}–${report.lastSeq}\n`,
    );
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await closePool(pool);
    if (embedded) await embedded.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
