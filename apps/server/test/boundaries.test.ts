import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without types
import { checkModuleGraph, findCycles, moduleGraph } from '../../../scripts/module-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages ESLint gives `code` as the file at `file` (relative to the repository). */
async function restricted(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const DRIZZLE = "import { eq } from 'drizzle-orm';\nexport const byId = eq;\n";
const SCHEMA = "import { patients } from '../../db/schema';\nexport const table = patients;\n";
const TYPE_SCHEMA =
  "import type { patients } from '../../db/schema';\nexport type Row = typeof patients.$inferSelect;\n";
const OTHER_REPOSITORY =
  "import { findPatient } from '../patient/patient.repository';\nexport const find = findPatient;\n";
const OWN_REPOSITORY = "import { findPatient } from './patient.repository';\nexport const find = findPatient;\n";
const DOMAIN =
  "import { patientScope } from '../../domain/scope/patient-scope.repository';\nexport const s = patientScope;\n";

describe('server boundaries (eslint.config.js)', () => {
  it('should refuse Drizzle and the schema outside repositories, src/db, tests and seeds', async () => {
    expect(await restricted(DRIZZLE, 'apps/server/src/modules/patient/patient.service.ts')).toHaveLength(1);
    expect(await restricted(SCHEMA, 'apps/server/src/modules/patient/patient.service.ts')).toHaveLength(1);
    expect(await restricted(TYPE_SCHEMA, 'apps/server/src/modules/patient/patient.service.ts')).toHaveLength(1);
    expect(await restricted(DRIZZLE, 'apps/server/src/domain/scope/project-scope.ts')).toHaveLength(1);
    expect(await restricted(DRIZZLE, 'apps/server/src/plugins/audit.ts')).toHaveLength(1);
    expect(await restricted(DRIZZLE, 'apps/server/src/lib/escape-like.ts')).toHaveLength(1);
    expect((await restricted(DRIZZLE, 'apps/server/src/modules/system/system.routes.ts'))[0]).toContain('Drizzle');

    expect(await restricted(DRIZZLE, 'apps/server/src/modules/patient/patient.repository.ts')).toEqual([]);
    expect(await restricted(SCHEMA, 'apps/server/src/domain/scope/patient-scope.repository.ts')).toEqual([]);
    expect(await restricted(SCHEMA, 'apps/server/src/db/seed.ts')).toEqual([]);
    expect(await restricted(SCHEMA, 'apps/server/src/modules/patient/patient.seed.ts')).toEqual([]);
    expect(await restricted(SCHEMA, 'apps/server/src/modules/patient/patient.routes.test.ts')).toEqual([]);
  });

  it("should refuse a module importing another module's repository, from services and repositories alike", async () => {
    const message = await restricted(OTHER_REPOSITORY, 'apps/server/src/modules/followup/followup-task.service.ts');
    expect(message).toHaveLength(1);
    expect(message[0]).toContain('其他模块的仓储');
    expect(
      await restricted(OTHER_REPOSITORY, 'apps/server/src/modules/followup/followup-task.repository.ts'),
    ).toHaveLength(1);
    expect(
      await restricted(
        "import { findPatient } from '../../modules/patient/patient.repository';\nexport const f = findPatient;\n",
        'apps/server/src/domain/scope/patient-scope.repository.ts',
      ),
    ).toHaveLength(1);

    const fromMain =
      "import { purgeExpiredSignInData } from './modules/auth/auth.repository';\nexport const p = purgeExpiredSignInData;\n";
    expect(await restricted(fromMain, 'apps/server/src/main.ts')).toHaveLength(1);
    expect(
      await restricted(
        "import { findPatient } from '../modules/patient/patient.repository';\nexport const f = findPatient;\n",
        'apps/server/src/plugins/audit.ts',
      ),
    ).toHaveLength(1);

    expect(await restricted(OWN_REPOSITORY, 'apps/server/src/modules/patient/patient.service.ts')).toEqual([]);
    expect(await restricted(DOMAIN, 'apps/server/src/modules/followup/followup-task.repository.ts')).toEqual([]);
  });
});

describe('repository re-exports (eslint.config.js)', () => {
  const reexports = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it("should refuse a service handing out its repository's queries by re-export, and let types through", async () => {
    const service = 'apps/server/src/modules/patient/patient.service.ts';
    expect(await reexports("export { findPatient } from './patient.repository';\n", service)).toEqual([
      expect.stringContaining('不得转出仓储的查询'),
    ]);
    expect(await reexports("export * from './patient.repository';\n", service)).toHaveLength(1);
    expect(await reexports("export type { PatientRow } from './patient.repository';\n", service)).toEqual([]);
    expect(await reexports("export { presentPatient } from './patient.presenter';\n", service)).toEqual([]);
    // a repository may re-export another query of its own module
    expect(
      await reexports(
        "export { findPatient } from './patient-list.repository';\n",
        'apps/server/src/modules/patient/patient.repository.ts',
      ),
    ).toEqual([]);
  });
});

describe('module graph (scripts/module-graph.mjs)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'module-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };

  it('should find a cycle between module folders, through type imports and the domain too, and none in a chain', () => {
    write('src/modules/a/a.service.ts', "import { b } from '../b/b.service';\nexport const a = b;\n");
    write('src/modules/b/b.service.ts', "import type { C } from '../../domain/c/c';\nexport const b = 1 as C;\n");
    write('src/modules/b/b.service.test.ts', "import { a } from '../a/a.service';\n");
    write('src/domain/c/c.ts', 'export type C = number;\n');
    expect(findCycles(moduleGraph(path.join(dir, 'src')))).toEqual([]);

    write('src/domain/c/c.ts', "import type { a } from '../../modules/a/a.service';\nexport type C = typeof a;\n");
    expect(findCycles(moduleGraph(path.join(dir, 'src')))).toEqual([['domain/c', 'modules/a', 'modules/b']]);
  });

  it('should let an allow-list name a known cycle, and report any other', () => {
    write('allow.json', JSON.stringify({ cycles: [['modules/b', 'modules/a', 'domain/c']] }));
    expect(checkModuleGraph(path.join(dir, 'src'), path.join(dir, 'allow.json')).cycles).toEqual([]);
    write('allow.json', JSON.stringify({ cycles: [['modules/a', 'modules/b']] }));
    expect(checkModuleGraph(path.join(dir, 'src'), path.join(dir, 'allow.json')).cycles).toHaveLength(1);
  });

  it("should find no cycle in the server's own modules", () => {
    const server = path.join(root, 'apps/server');
    expect(checkModuleGraph(path.join(server, 'src'), path.join(server, 'module-cycles.allow.json')).cycles).toEqual(
      [],
    );
  });
});
