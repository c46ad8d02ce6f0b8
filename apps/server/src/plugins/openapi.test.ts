import { readFile } from 'node:fs/promises';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hospital } from '../../test/factories';
import { createBareTestApp, type TestApp } from '../../test/test-app';
import { buildOpenApiDocument, OPENAPI_PATH } from './openapi';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  summary: string;
  'x-access': { public?: true; permission?: string | null };
  security: Record<string, string[]>[];
  parameters?: { name?: string; in?: string; required?: boolean; $ref?: string }[];
  requestBody?: { content: Json };
  responses: Record<string, { description?: string; content?: Json }>;
};

const COPY = new URL('../../../../docs/openapi.json', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let t: TestApp;
let token: string;
const routes: RouteOptions[] = [];
let served: Json;
beforeAll(async () => {
  t = await createBareTestApp({}, { routeObserver: (r) => routes.push(r) });
  token = (await hospital(t)).admin.token;
  const res = await t.api({ method: 'GET', url: OPENAPI_PATH, token });
  expect(res.statusCode).toBe(200);
  served = res.json<Json>();
});
afterAll(async () => {
  await t?.close();
});

const operations = (doc: Json) =>
  Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  );

describe('GET openapi.json', () => {
  it('should equal the committed docs/openapi.json (else run `npm run openapi -w apps/server`)', async () => {
    const committed = JSON.parse(await readFile(COPY, 'utf8')) as Json;
    expect(served, 'docs/openapi.json is stale: run `npm run openapi -w apps/server`').toEqual(committed);
  });

  it('should answer only a signed-in caller', async () => {
    const res = await t.api({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(401);
  });

  it('should hold no configuration of the instance', () => {
    const text = JSON.stringify(served);
    expect(text).not.toContain(t.dataDir);
    expect(text).not.toContain(t.config.dataDir);
    expect(text).not.toMatch(/postgres:\/\//);
  });

  it('should document every route of the route table, with its access rule, and nothing else', () => {
    const expected = routes
      .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({ r, m: String(m).toLowerCase() })))
      .filter(({ r, m }) => m !== 'head' && r.url !== '/*')
      .map(({ r, m }) => `${m} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    const documented = operations(served).map(({ path, method }) => `${method} ${path}`);
    expect(new Set(documented)).toEqual(new Set(expected));
    expect(documented).toHaveLength(expected.length);

    for (const r of routes) {
      if (r.url === '/*' || r.method === 'HEAD') continue;
      const op = (served.paths as Record<string, Record<string, Operation>>)[r.url.replace(/:(\w+)/g, '{$1}')]?.[
        String(r.method).toLowerCase()
      ];
      const config = r.config as { public?: boolean; permission?: string | null };
      if (config.public === true) {
        expect(op?.['x-access'], r.url).toEqual({ public: true });
        expect(op?.security, r.url).toEqual([]);
      } else {
        expect(op?.['x-access'].permission, r.url).toBe(config.permission);
        expect(op?.security[0], r.url).toEqual({ bearer: [] });
      }
    }
  });

  it('should be an OpenAPI 3.1 document in shape: paths, methods, parameters, responses, resolvable $refs', () => {
    expect(served.openapi).toBe('3.1.0');
    const info = served.info as Json;
    expect(typeof info.title).toBe('string');
    expect(typeof info.version).toBe('string');
    const components = served.components as { schemas: Json; parameters: Json; securitySchemes: Json };
    for (const name of Object.keys(components.schemas)) expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);

    const ids = new Set<string>();
    const ops = operations(served);
    expect(ops.length).toBeGreaterThan(100);
    for (const { path, method, op } of ops) {
      const where = `${method} ${path}`;
      expect(path, where).toMatch(/^\//);
      expect(METHODS, where).toContain(method);
      expect(ids.has(op.operationId), `${where}: operationId ${op.operationId} twice`).toBe(false);
      ids.add(op.operationId);
      expect(op.summary, where).toBeTruthy();
      const responses = Object.entries(op.responses);
      expect(Object.keys(op.responses), where).toContain('200');
      for (const [status, response] of responses) {
        expect(status, where).toMatch(/^([1-5]\d\d|default)$/);
        expect(typeof response.description, where).toBe('string');
      }
      // every template variable is a required path parameter, and no path parameter is missing from the template
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(pathParams.map((p) => p.name).sort(), where).toEqual(templated.sort());
      expect(
        pathParams.every((p) => p.required === true),
        where,
      ).toBe(true);
      for (const p of op.parameters ?? []) {
        if (p.$ref) continue;
        expect(['query', 'header', 'path', 'cookie'], where).toContain(p.in);
      }
      for (const s of op.security)
        for (const scheme of Object.keys(s)) expect(components.securitySchemes).toHaveProperty(scheme);
    }

    const refs = new Set<string>();
    JSON.stringify(served, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') refs.add(value);
      return value;
    });
    expect(refs.size).toBeGreaterThan(1);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/(schemas|parameters)\/[a-zA-Z0-9._-]+$/);
      const [, , kind = '', name = ''] = ref.split('/');
      expect((components as Record<string, Json>)[kind], ref).toHaveProperty(name);
    }
    // JSON Schema 2020-12 inside 3.1: no `$defs` left behind whose `#/$defs/...` would resolve against the document
    expect(JSON.stringify(served)).not.toContain('"$defs"');
  });
});

describe('buildOpenApiDocument', () => {
  it('should move a contract used by two routes to one component, written out once', () => {
    const big = z.object(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field${i}`, z.string()])));
    const route = (url: string): RouteOptions =>
      ({
        method: 'POST',
        url,
        schema: { body: z.object({ a: big }), response: { 200: z.object({ ok: z.boolean() }) } },
        config: { permission: 'x.y' },
        handler: () => undefined,
      }) as unknown as RouteOptions;
    const doc = buildOpenApiDocument([route('/api/cmdb-template/one'), route('/api/cmdb-template/two')], {
      version: '1',
    });
    const schemas = (doc.components as { schemas: Json }).schemas;
    const shared = Object.keys(schemas).filter((k) => k.startsWith('Shared_'));
    expect(shared).toHaveLength(1);
    expect(JSON.stringify(doc).match(/"field29":/g)).toHaveLength(1);
    expect(JSON.stringify(doc).match(new RegExp(`"#/components/schemas/${shared[0] ?? ''}"`, 'g'))).toHaveLength(2);
  });

  it('should name a recursive contract as a component its own $ref points to', () => {
    type Node = { children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(node) }));
    const doc = buildOpenApiDocument(
      [
        {
          method: 'GET',
          url: '/api/cmdb-template/tree',
          schema: { response: { 200: z.object({ root: node }) } },
          config: { public: true },
          handler: () => undefined,
        } as unknown as RouteOptions,
      ],
      { version: '1' },
    );
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    const [name] = Object.keys(schemas).filter((k) => k.startsWith('Shared_'));
    expect(JSON.stringify(schemas[name ?? ''])).toContain(`"#/components/schemas/${name ?? ''}"`);
  });
});
