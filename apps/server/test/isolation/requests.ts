import type { z } from 'zod';
import { defOf, objectShape, unwrap, type IdPosition, type RouteCase } from './route-cases';

/** Picks the id of the acting side's own entity for a field that is not under test (e.g. `projectId` → its project). */
export type IdResolver = (fieldName: string, route: RouteCase) => string;

export type RequestParts = {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
};

const STRING_CANDIDATES = [
  '测试',
  'a',
  '测试名称abc',
  'abcdefgh',
  '13800138000',
  'Passw0rd!x9',
  '2026-01-01',
  '2026-01-01T00:00:00.000Z',
  'x'.repeat(20),
];
const NUMBER_CANDIDATES = [1, 0, 10, 100, 2026];

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;
const idName = (name: string) => name === 'id' || name === 'ids' || /[a-z](Id|Ids)$/.test(name);

/** A value the field's contract accepts, or undefined when the field may be left out. */
export function sampleField(schema: z.ZodType, name: string, route: RouteCase, resolve: IdResolver): unknown {
  if (accepts(schema, undefined)) return undefined;
  return sampleRequired(schema, name, route, resolve);
}

function sampleRequired(schema: z.ZodType, name: string, route: RouteCase, resolve: IdResolver): unknown {
  const inner = unwrap(schema);
  const d = defOf(inner);
  switch (d.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(d.shape ?? {})) {
        const v = sampleField(f, k, route, resolve);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'string': {
      if (idName(name) || d.format === 'uuid' || (d.checks ?? []).some((c) => c._zod.def.format === 'uuid'))
        return resolve(name, route);
      return STRING_CANDIDATES.find((c) => accepts(schema, c)) ?? 'a';
    }
    case 'number':
    case 'int':
      return NUMBER_CANDIDATES.find((c) => accepts(schema, c)) ?? 1;
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(d.entries ?? {})[0];
    case 'literal':
      return d.values?.[0];
    case 'array': {
      const el = d.element;
      return el ? [sampleRequired(el, name.replace(/s$/, ''), route, resolve)] : [];
    }
    case 'union':
      for (const option of d.options ?? []) {
        const v = sampleRequired(option, name, route, resolve);
        if (accepts(schema, v)) return v;
      }
      return null;
    case 'record':
      return {};
    default:
      return null;
  }
}

/** A request the route's contract accepts, every id naming the acting side's own entities. */
export function baseRequest(route: RouteCase, resolve: IdResolver): RequestParts {
  const params: Record<string, string> = {};
  for (const m of route.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
    const name = m[1] ?? '';
    const field = objectShape(route.schemas.params)?.[name];
    const v = field ? sampleRequired(field, name, route, resolve) : resolve(name, route);
    params[name] = String(v);
  }
  const query = (route.schemas.querystring && sampleRequired(route.schemas.querystring, '', route, resolve)) ?? {};
  const body =
    route.method === 'GET' || route.method === 'DELETE'
      ? undefined
      : route.schemas.body
        ? ((sampleRequired(route.schemas.body, '', route, resolve) ?? {}) as Record<string, unknown>)
        : undefined;
  return { params, query: query as Record<string, unknown>, body };
}

/** The request with one id position set to `value`. */
export function withId(base: RequestParts, position: IdPosition, value: string): RequestParts {
  const next: RequestParts = structuredClone(base);
  const v = position.array ? [value] : value;
  if (position.part === 'params') {
    next.params[position.path[0] ?? ''] = value;
    return next;
  }
  const root = position.part === 'querystring' ? next.query : (next.body ??= {});
  let cursor: Record<string, unknown> = root;
  position.path.forEach((key, i) => {
    if (i === position.path.length - 1) cursor[key] = v;
    else {
      const child = cursor[key];
      cursor[key] = child && typeof child === 'object' ? child : {};
      cursor = cursor[key] as Record<string, unknown>;
    }
  });
  return next;
}

/** The URL with its path params filled. */
export function urlOf(route: RouteCase, parts: RequestParts): string {
  return route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(parts.params[name] ?? ''));
}

/** Whether the whole request passes the route's contract (else both answers would be the same 400, a weak case). */
export function passesContract(route: RouteCase, parts: RequestParts): boolean {
  const { params, querystring, body } = route.schemas;
  return (
    (!params || accepts(params, parts.params)) &&
    (!querystring || accepts(querystring, parts.query)) &&
    (!body || accepts(body, parts.body))
  );
}
