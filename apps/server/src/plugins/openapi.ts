import { createHash } from 'node:crypto';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCESS_TOKEN_QUERY, API_BASE, APP_CODE } from '@registry/shared/constants';
import { errorBody } from '@registry/shared/contracts/envelope';
import serverPackage from '../../package.json';
import { binaryBody } from './binary';

/**
 * The OpenAPI 3.1 document of the API, derived from the route table: every route declares its access rule in `config`
 * and its contracts in `schema` (zod: `querystring`, `params`, `body`, `response`), and both are required at
 * registration (`plugins/access.ts`, the route-table test in `app.test.ts`). Nothing here is listed by hand: a new
 * route appears with its contracts. Request parts are converted with zod's `z.toJSONSchema` as the input type (what a
 * caller sends, defaults optional), responses as the output type. `config.summary` is shown when a route gives one;
 * otherwise the summary is the path under the API base.
 *
 * Served signed-in at `GET /api/cmdb-template/openapi.json` (`system.routes.ts`); a copy is committed as
 * `docs/openapi.json` (`npm run openapi -w apps/server` rewrites it; `openapi.test.ts` checks it is in step).
 */

export const OPENAPI_PATH = `${API_BASE}/openapi.json`;

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

type RouteSchema = {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  headers?: unknown;
  response?: Record<string, unknown>;
};

type RouteConfig = {
  public?: boolean;
  permission?: string | null;
  initialPassword?: boolean;
  queryToken?: boolean;
  appCode?: boolean;
  summary?: string;
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options'] as const;

/** Routes that are not part of the API: the web app's static files and SPA fallback. */
function documented(url: string): boolean {
  return url !== '/*';
}

/** `/a/:id/b` → `/a/{id}/b` */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function isZod(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType;
}

const SHARED = '__shared';
/** A shared schema smaller than this (as JSON) is written where it is used instead of as a component. */
const INLINE_BELOW = 300;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Converts every contract of the document at once, one registry per direction: request parts as zod's input type
 * (what a caller sends; a field with a default is optional), responses as the output type. Schemas zod cannot express
 * in JSON Schema (a `z.custom`, a transform's output) become `{}` (any value). A zod schema used in more than one
 * place (the form definition, a page of patients …) or recursively becomes one entry of `components.schemas`, named
 * after a hash of its content so that adding a route does not rename the others; small ones are written in place.
 */
class Converter {
  private readonly registries = { input: z.registry<{ id: string }>(), output: z.registry<{ id: string }>() };
  readonly components = new Map<string, JsonSchema>();
  private converted: { input: Record<string, JsonSchema>; output: Record<string, JsonSchema> } | undefined;

  private readonly ids = { input: new Map<z.ZodType, string>(), output: new Map<z.ZodType, string>() };

  /** Registers a contract under `id`, or answers the id it already has (one contract used by several routes). */
  add(io: 'input' | 'output', id: string, schema: z.ZodType): string {
    const known = this.ids[io].get(schema);
    if (known) return known;
    this.ids[io].set(schema, id);
    this.registries[io].add(schema, { id });
    return id;
  }

  get(io: 'input' | 'output', id: string): JsonSchema {
    if (!this.converted) this.converted = { input: this.convert('input'), output: this.convert('output') };
    const schema = this.converted[io][id];
    if (!schema) throw new Error(`openapi: no schema ${id}`);
    return schema;
  }

  private convert(io: 'input' | 'output'): Record<string, JsonSchema> {
    const uri = (id: string) => `#/components/schemas/${id}`;
    const result = z.toJSONSchema(this.registries[io], { io, reused: 'ref', unrepresentable: 'any', uri }) as {
      schemas: Record<string, JsonSchema>;
    };
    const { [SHARED]: shared, ...entries } = result.schemas;
    const local = ((shared?.$defs ?? {}) as Record<string, JsonSchema>) ?? {};
    const localRef = (ref: string) => /^#\/components\/schemas\/__shared#\/\$defs\/(.+)$/.exec(ref)?.[1];

    // names: a hash of the content, where a reference to another shared schema counts as that schema's content
    const hashes = new Map<string, string>();
    const hashOf = (key: string, stack: string[]): string => {
      const known = hashes.get(key);
      if (known) return known;
      if (stack.includes(key)) return `cycle:${stack.length - stack.indexOf(key)}`;
      const canonical = JSON.stringify(local[key], (k, v: unknown) => {
        if (k === '$ref' && typeof v === 'string') {
          const target = localRef(v);
          if (target !== undefined) return hashOf(target, [...stack, key]);
        }
        return v;
      });
      const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 10);
      if (stack.length === 0) hashes.set(key, hash);
      return hash;
    };
    const names = new Map(Object.keys(local).map((key) => [key, `Shared_${hashOf(key, [])}`]));
    const selfReferencing = (key: string) => JSON.stringify(local[key]).includes(`__shared#/$defs/${key}"`);
    const inlined = new Set(
      Object.keys(local).filter((key) => JSON.stringify(local[key]).length < INLINE_BELOW && !selfReferencing(key)),
    );

    const referenced = new Set<string>();
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      const ref = (value as { $ref?: unknown }).$ref;
      const target = typeof ref === 'string' ? localRef(ref) : undefined;
      if (target !== undefined && inlined.has(target)) {
        const { $ref: _ref, ...rest } = value as Record<string, unknown>;
        return { ...(rewrite(local[target]) as JsonSchema), ...(rewrite(rest) as JsonSchema) };
      }
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === '$schema' || k === '$id') continue;
        if (k === '$ref' && typeof v === 'string' && target !== undefined)
          out[k] = `#/components/schemas/${names.get(target) ?? target}`;
        else if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          referenced.add(v.slice('#/components/schemas/'.length)); // another route's contract, nested in this one
          out[k] = v;
        } else out[k] = rewrite(v);
      }
      return out;
    };
    for (const [key, def] of Object.entries(local))
      if (!inlined.has(key)) this.components.set(names.get(key) ?? key, rewrite(def) as JsonSchema);
    const converted = Object.fromEntries(
      Object.entries(entries).map(([id, schema]) => [id, rewrite(schema) as JsonSchema]),
    );
    for (const id of referenced) {
      const schema = converted[id];
      if (!schema) throw new Error(`openapi: $ref to a missing schema ${id}`);
      this.components.set(id, schema);
    }
    return converted;
  }
}

function accessText(config: RouteConfig): string {
  if (config.public === true) return 'Public: no session needed.';
  const who =
    typeof config.permission === 'string'
      ? `A session whose user holds the permission \`${config.permission}\`.`
      : 'Any signed-in session.';
  const initial = config.initialPassword
    ? ' Also reachable while the user still has an initial password.'
    : ' A user with an initial password gets 428 until the password is set.';
  return who + initial;
}

function operationName(method: string, url: string): string {
  const rest = url.startsWith(`${API_BASE}/`) ? url.slice(API_BASE.length + 1) : url.replace(/^\//, '');
  return `${method}_${rest}`.replace(/[^A-Za-z0-9]+/g, '_').replace(/_+$/, '');
}

function tagOf(url: string): string {
  if (!url.startsWith(`${API_BASE}/`)) return 'web';
  return url.slice(API_BASE.length + 1).split('/')[0] ?? 'api';
}

/** An object contract of a query string, path or headers → one OpenAPI parameter per property. */
function parameters(json: JsonSchema | undefined, where: 'query' | 'path' | 'header'): Record<string, unknown>[] {
  if (!json) return [];
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([key, property]) => ({
    name: key,
    in: where,
    required: where === 'path' ? true : required.has(key),
    schema: property,
  }));
}

/** The OpenAPI 3.1 document of the routes (as an `onRoute` hook sees them), paths in alphabetical order. */
export function buildOpenApiDocument(routes: readonly RouteOptions[], info: { version: string }): JsonSchema {
  const converter = new Converter();
  const errorId = converter.add('output', 'ErrorBody', errorBody);
  const build: { path: string; method: string; operation: () => Operation }[] = [];
  const seen = new Set<string>();

  for (const route of routes) {
    if (!documented(route.url)) continue;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toLowerCase());
    for (const method of methods) {
      if (!(HTTP_METHODS as readonly string[]).includes(method)) continue; // the HEAD routes fastify adds for GET
      const key = `${method} ${route.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const schema = (route.schema ?? {}) as RouteSchema;
      const config = (route.config ?? {}) as RouteConfig;
      const name = operationName(method, route.url);
      const isApi = route.url.startsWith(`${API_BASE}/`);
      const input = (part: string, value: unknown) =>
        isZod(value) ? converter.add('input', `${name}.${part}`, value) : undefined;
      const ids = {
        params: input('params', schema.params),
        query: input('query', schema.querystring),
        headers: input('headers', schema.headers),
        body: input('body', schema.body),
      };
      const responseIds = Object.entries(schema.response ?? {}).map(([status, body]) => ({
        status,
        binary: body === binaryBody,
        id: body !== binaryBody && isZod(body) ? converter.add('output', `${name}.${status}`, body) : undefined,
      }));

      build.push({
        path: openApiPath(route.url),
        method,
        operation: () => {
          const get = (id: string | undefined) => (id ? converter.get('input', id) : undefined);
          const params: Record<string, unknown>[] = [
            ...parameters(get(ids.params), 'path'),
            ...parameters(get(ids.query), 'query'),
            ...parameters(get(ids.headers), 'header'),
          ];
          if (isApi && config.appCode !== false) params.push({ $ref: '#/components/parameters/AppCode' });
          const responses: Record<string, unknown> = {};
          for (const r of responseIds) {
            if (r.binary)
              responses[r.status] = {
                description: 'The bytes of the file or image, with their content type.',
                content: { 'application/octet-stream': { schema: {} } },
              };
            else if (r.id)
              responses[r.status] = {
                description: r.status === '200' ? 'Success.' : `Status ${r.status}.`,
                content: { 'application/json': { schema: converter.get('output', r.id) } },
              };
          }
          responses.default = {
            description: 'An error: `status` repeats the HTTP status, `message` says what went wrong (in Chinese).',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorId}` } } },
          };
          const security: Record<string, string[]>[] = [];
          if (config.public !== true) {
            security.push({ bearer: [] });
            if (config.queryToken === true) security.push({ accessToken: [] });
          }
          const body = get(ids.body);
          return {
            operationId: name,
            summary: config.summary ?? (isApi ? route.url.slice(API_BASE.length + 1) : route.url),
            description: accessText(config),
            tags: [tagOf(route.url)],
            'x-access':
              config.public === true
                ? { public: true }
                : { permission: config.permission ?? null, initialPassword: config.initialPassword === true },
            security,
            ...(params.length > 0 ? { parameters: params } : {}),
            ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
            responses,
          };
        },
      });
    }
  }

  const paths: Record<string, Record<string, Operation>> = {};
  for (const { path, method, operation } of [...build].sort((a, b) => compare(a.path, b.path))) {
    paths[path] = { ...paths[path], [method]: operation() };
  }
  const schemas: Record<string, JsonSchema> = {
    [errorId]: converter.get('output', errorId),
    ...Object.fromEntries([...converter.components.entries()].sort(([a], [b]) => compare(a, b))),
  };
  const tags = [...new Set(build.map((b) => tagOf(b.path)))].sort(compare).map((tag) => ({ name: tag }));
  return {
    openapi: '3.1.0',
    info: {
      title: '临床科研患者登记平台 API',
      version: info.version,
      description:
        "Generated from the server's route table and the zod contracts of `packages/shared/src/contracts`. Every API " +
        `call not marked otherwise sends \`X-App-Code: ${APP_CODE}\`; a signed-in call sends ` +
        '`Authorization: Bearer <token>` (the token `POST /auth/login` answers). Successful JSON answers are the ' +
        'envelope `{ status: 200, message, data }`, errors `ErrorBody`.',
    },
    tags,
    paths,
    components: {
      schemas,
      parameters: {
        AppCode: {
          name: 'X-App-Code',
          in: 'header',
          required: true,
          description: 'Identifies the web client; an API call without it is refused with 400.',
          schema: { type: 'string', const: APP_CODE },
        },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The session token `POST /auth/login` answers.' },
        accessToken: {
          type: 'apiKey',
          in: 'query',
          name: ACCESS_TOKEN_QUERY,
          description:
            'The session token in the query: accepted only by the routes a browser opens by itself (file previews).',
        },
      },
    },
  };
}

/** The shape the route answers (the serializer checks it); the document itself is `buildOpenApiDocument`'s. */
const openApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()),
});

/**
 * `GET /api/cmdb-template/openapi.json`: the document of this server's routes (all of them registered before the first
 * request; built once, on the first request). Signed-in: it names every call and permission, nothing an anonymous
 * caller needs; it holds no data, configuration or secret.
 */
export function registerOpenApiRoute(root: FastifyInstance, deps: { routes: readonly RouteOptions[] }): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  let document: JsonSchema | undefined;
  app.get(
    OPENAPI_PATH,
    {
      schema: { response: { 200: openApiDocument } },
      config: { permission: null, summary: 'The OpenAPI 3.1 document of this API' },
    },
    async () => {
      document ??= buildOpenApiDocument(deps.routes, { version: serverPackage.version });
      return document as z.infer<typeof openApiDocument>;
    },
  );
}
