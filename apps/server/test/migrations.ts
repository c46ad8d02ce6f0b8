/**
 * The two rules of apps/server/drizzle, checked by migrations.test.ts in the server suite (so in `npm test` and CI):
 *  - no drift: `drizzle-kit generate` on the schema (src/db/schema/index.ts) makes no new migration. It runs on a
 *    copy of the folder in .tmp/, never in the repo's drizzle/; only drizzle-kit's own "nothing to migrate" counts as no drift (a question it
 *    cannot ask without a terminal — a rename? — is drift too);
 *  - landed migrations are never edited: drizzle/landed.sha256 (the format of `sha256sum`) lists the SHA-256 of each
 *    .sql file; an edited file, a file not in the list and a listed file that is gone are each reported;
 *  - hand-written SQL in migrations of its own: a generated migration after 0018 holds none (`mixedProblems`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const serverRoot = path.resolve(here, '..');
export const repoRoot = path.resolve(serverRoot, '../..');
export const migrationsDir = path.join(serverRoot, 'drizzle');
/** The schema's index: one file per area beside it (src/db/schema/*.ts), re-exported. */
export const schemaFile = path.join(serverRoot, 'src/db/schema/index.ts');
export const manifestName = 'landed.sha256';

const drizzleKit = path.join(repoRoot, 'node_modules/drizzle-kit/bin.cjs');

/**
 * A scratch folder under the repo's .tmp/ (git-ignored): drizzle-kit wants a relative output folder, and a schema
 * copied there still resolves drizzle-orm from the repo's node_modules.
 */
export function scratchDir(): string {
  const base = path.join(repoRoot, '.tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(path.join(base, 'migration-check-'));
}

export type Drift = {
  /** The SQL drizzle-kit generated, one file after another; empty when it stopped before writing one. */
  sql: string;
  /** drizzle-kit's output, for the message. */
  output: string;
};

/** null when `drizzle-kit generate` on `schema` finds nothing to migrate after the migrations in `migrations`. */
export async function findDrift(schema = schemaFile, migrations = migrationsDir): Promise<Drift | null> {
  const work = scratchDir();
  try {
    cpSync(migrations, path.join(work, 'drizzle'), { recursive: true });
    const before = new Set(readdirSync(path.join(work, 'drizzle')));
    const output = await run(
      process.execPath,
      [drizzleKit, 'generate', '--dialect', 'postgresql', '--schema', schema, '--out', 'drizzle'],
      work,
    );
    const added = readdirSync(path.join(work, 'drizzle'))
      .filter((f) => !before.has(f) && f.endsWith('.sql'))
      .sort();
    if (added.length === 0 && output.includes('No schema changes, nothing to migrate')) return null;
    const sql = added.map((f) => `-- ${f}\n${readFileSync(path.join(work, 'drizzle', f), 'utf8')}`).join('\n');
    return { sql, output };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // stdin closed: a question (rename or new column?) fails at once instead of waiting for an answer.
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', (err) => (clearTimeout(timer), reject(err)));
    child.once('close', () => (clearTimeout(timer), resolve(Buffer.concat(chunks).toString())));
  });
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The manifest as file → hash; a line is `<64 hex>  <file>` as `sha256sum` writes it. */
export function readManifest(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line);
    if (!m) throw new Error(`${manifestName}:${i + 1}: not "<sha256>  <file>": ${line}`);
    entries.set(m[2]!, m[1]!);
  }
  return entries;
}

/** Every way the .sql files of `dir` differ from its manifest, one Chinese-free line each; empty when they agree. */
export function landedProblems(dir = migrationsDir): string[] {
  const manifest = readManifest(path.join(dir, manifestName));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const problems: string[] = [];
  for (const file of files) {
    const hash = sha256(path.join(dir, file));
    const listed = manifest.get(file);
    if (listed === undefined) {
      problems.push(`${file} is not in ${manifestName}; a new migration adds the line "${hash}  ${file}"`);
    } else if (listed !== hash) {
      problems.push(
        `${file} was edited after it landed (sha256 ${hash}, listed ${listed}); ` +
          'a landed migration is never changed: put the change in a new migration',
      );
    }
  }
  for (const file of manifest.keys()) {
    if (!files.includes(file)) problems.push(`${file} is listed in ${manifestName} but is gone`);
  }
  return problems;
}

/** The first line drizzle-kit writes into `drizzle-kit generate --custom`'s empty file. */
export const CUSTOM_HEADER = '-- Custom SQL migration file, put your code below! --';
/** Migrations up to this one landed before the rule below; some mix hand-written SQL into generated files. */
export const LAST_MIXED_MIGRATION = 18;
/** What drizzle-kit never generates from schema.ts: functions, triggers, procedural blocks, data changes. */
const HAND_WRITTEN =
  /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|TRIGGER|PROCEDURE|EXTENSION|RULE)\b|\bDO\s+\$|\bINSERT\s+INTO\b|\bUPDATE\s+"?\w+"?\s+SET\b|\bDELETE\s+FROM\b/i;

/**
 * Hand-written SQL lives in its own migration (`npm run db:generate -w apps/server -- --custom --name <what>`), never inside a
 * generated one, so the generated files stay what drizzle-kit would write; one line per offending file.
 */
export function mixedProblems(dir = migrationsDir): string[] {
  const problems: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    if (Number.parseInt(file, 10) <= LAST_MIXED_MIGRATION) continue;
    const text = readFileSync(path.join(dir, file), 'utf8');
    if (text.startsWith(CUSTOM_HEADER)) continue;
    const hit = HAND_WRITTEN.exec(text);
    if (hit) {
      problems.push(
        `${file} is a generated migration holding hand-written SQL ("${hit[0]}"); ` +
          'put it in a migration of its own: npm run db:generate -w apps/server -- --custom --name <what>',
      );
    }
  }
  return problems;
}
