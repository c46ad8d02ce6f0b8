import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CUSTOM_HEADER,
  findDrift,
  landedProblems,
  manifestName,
  migrationsDir,
  mixedProblems,
  schemaFile,
  scratchDir,
} from './migrations';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function scratchCopy(): string {
  const dir = scratchDir();
  scratch.push(dir);
  cpSync(migrationsDir, path.join(dir, 'drizzle'), { recursive: true });
  return dir;
}

describe('migrations: the schema and drizzle/ agree', () => {
  it('should find nothing to migrate when drizzle-kit generate runs on the schema', async () => {
    const drift = await findDrift();
    expect(
      drift,
      drift === null
        ? undefined
        : `src/db/schema and apps/server/drizzle disagree: run \`npm run db:generate\` and commit the migration.\n` +
            `drizzle-kit would generate:\n${drift.sql || drift.output.slice(-2000)}`,
    ).toBeNull();
  });

  it('should report drift with its SQL when the schema has a column the migrations lack', async () => {
    const dir = scratchCopy();
    // The schema's folder copied, its patients table given a column the migrations lack.
    const schema = path.join(dir, 'schema');
    cpSync(path.dirname(schemaFile), schema, { recursive: true });
    const source = readFileSync(path.join(schema, 'patients.ts'), 'utf8');
    const anchor = "export const patients = pgTable(\n  'patients',\n  {\n";
    expect(source).toContain(anchor);
    writeFileSync(
      path.join(schema, 'patients.ts'),
      source.replace(anchor, `${anchor}    driftProbe: text('drift_probe'),\n`),
    );

    const drift = await findDrift(path.join(schema, path.basename(schemaFile)));

    expect(drift?.sql).toContain('ALTER TABLE "patients" ADD COLUMN "drift_probe" text');
    // Only the scratch copy received the generated file.
    expect(landedProblems()).toEqual([]);
  });
});

describe('migrations: landed files are never edited', () => {
  it('should list every .sql file of drizzle/ with its hash in landed.sha256', () => {
    expect(landedProblems()).toEqual([]);
  });

  it('should report an edited migration, an unlisted one and a listed one that is gone', () => {
    const dir = path.join(scratchCopy(), 'drizzle');
    const edited = '0010_patients.sql';
    writeFileSync(path.join(dir, edited), `${readFileSync(path.join(dir, edited), 'utf8')}\n-- edited\n`);
    writeFileSync(path.join(dir, '0999_new.sql'), 'SELECT 1;\n');
    rmSync(path.join(dir, '0001_sign_in.sql'));

    const problems = landedProblems(dir);

    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^0010_patients\.sql was edited after it landed/);
    expect(problems[1]).toMatch(
      /^0999_new\.sql is not in landed\.sha256; a new migration adds the line "[0-9a-f]{64} {2}0999_new\.sql"/,
    );
    expect(problems[2]).toBe(`0001_sign_in.sql is listed in ${manifestName} but is gone`);
  });
});

describe('migrations: hand-written SQL in migrations of its own', () => {
  it('should find no generated migration holding hand-written SQL', () => {
    expect(mixedProblems()).toEqual([]);
  });

  it('should report a trigger inside a generated migration and accept it in a custom one', () => {
    const dir = path.join(scratchCopy(), 'drizzle');
    const trigger = 'CREATE TRIGGER t BEFORE INSERT ON "patients" FOR EACH ROW EXECUTE FUNCTION f();\n';
    writeFileSync(path.join(dir, '0998_generated.sql'), `ALTER TABLE "patients" ADD COLUMN "x" text;\n${trigger}`);
    writeFileSync(path.join(dir, '0999_custom.sql'), `${CUSTOM_HEADER}\n${trigger}`);
    writeFileSync(path.join(dir, '0997_plain.sql'), 'ALTER TABLE "patients" ADD COLUMN "y" text;\n');

    const problems = mixedProblems(dir);

    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^0998_generated\.sql is a generated migration holding hand-written SQL \("CREATE TRIGGER"\)/,
    );
  });
});
