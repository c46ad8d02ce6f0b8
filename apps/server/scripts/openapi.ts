/**
 * `npm run openapi -w apps/server`: writes the OpenAPI document of the server's routes to `docs/openapi.json`
 * (prettier-formatted), the copy `src/plugins/openapi.test.ts` compares with what the server serves. It builds the
 * app without a database (nothing is queried while routes are registered) in a temporary data directory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteOptions } from 'fastify';
import * as prettier from 'prettier';
import serverPackage from '../package.json';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { closePool, createPool } from '../src/db/pool';
import { buildOpenApiDocument } from '../src/plugins/openapi';

const OPENAPI_COPY = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'registry-openapi-'));
const pool = createPool('postgres://nobody@127.0.0.1:1/none', { connectionTimeoutMillis: 200 });
try {
  const routes: RouteOptions[] = [];
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, JOBS_ENABLED: 'false' }),
    pool,
    routeObserver: (route) => routes.push(route),
  });
  await app.ready();
  const document = buildOpenApiDocument(routes, { version: serverPackage.version });
  await app.close();
  const options = { ...(await prettier.resolveConfig(OPENAPI_COPY)), filepath: OPENAPI_COPY };
  await writeFile(OPENAPI_COPY, await prettier.format(JSON.stringify(document), options));
  console.log(`${path.relative(process.cwd(), OPENAPI_COPY)}: ${Object.keys(document.paths as object).length} paths`);
} finally {
  await closePool(pool);
  await rm(dataDir, { recursive: true, force: true });
}
