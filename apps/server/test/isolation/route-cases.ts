import type { RouteOptions } from 'fastify';
import type { z } from 'zod';
import { API_BASE } from '@registry/shared/constants';

/**
 * The route table as the isolation matrix sees it: every API route, its access rule, and the positions that carry an
 * id (path params, query fields, body fields) derived from its zod contract — a field named `id` or ending in
 * `Id`/`Ids`, or typed as a uuid.
 */

export type Part = 'params' | 'querystring' | 'body';

export type IdPosition = {
  part: Part;
  /** Field path inside the part (one level for params and query; nested for bodies). */
  path: string[];
  /** The field takes an array of ids. */
  array: boolean;
};

export type RouteCase = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  public: boolean;
  /** The permission code, null for any signed-in user. */
  permission: string | null;
  schemas: Partial<Record<Part, z.ZodType>>;
  positions: IdPosition[];
};

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  format?: string;
  checks?: { _zod: { def: { format?: string } } }[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  minimum?: number;
};

export const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Strips optional, nullable, default, readonly, catch and pipe (its input side). */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const d = defOf(s);
    if (
      ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(d.type) &&
      d.innerType
    )
      s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else if (d.type === 'lazy') break;
    else break;
  }
  return s;
}

export function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  if (!schema) return null;
  const d = defOf(unwrap(schema));
  return d.type === 'object' && d.shape ? d.shape : null;
}

const isUuid = (schema: z.ZodType) => {
  const d = defOf(unwrap(schema));
  return d.type === 'string' && (d.format === 'uuid' || (d.checks ?? []).some((c) => c._zod.def.format === 'uuid'));
};
const isStringish = (schema: z.ZodType) => ['string', 'union', 'any', 'unknown'].includes(defOf(unwrap(schema)).type);
const idName = (name: string) => name === 'id' || name === 'ids' || /[a-z](Id|Ids)$/.test(name);

function positionsOf(part: Part, schema: z.ZodType | undefined, prefix: string[] = [], depth = 0): IdPosition[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  const out: IdPosition[] = [];
  for (const [name, field] of Object.entries(shape)) {
    const inner = unwrap(field);
    const d = defOf(inner);
    const path = [...prefix, name];
    if (d.type === 'array' && d.element) {
      if ((idName(name) || isUuid(d.element)) && isStringish(d.element)) out.push({ part, path, array: true });
      continue;
    }
    if (d.type === 'object' && depth < 2) {
      out.push(...positionsOf(part, inner, path, depth + 1));
      continue;
    }
    if ((idName(name) || isUuid(inner)) && isStringish(inner)) out.push({ part, path, array: false });
  }
  return out;
}

/** The API routes of the table (HEAD twins and the web app's static routes left out). */
export function routeCases(routes: RouteOptions[]): RouteCase[] {
  const cases: RouteCase[] = [];
  for (const r of routes) {
    if (!r.url.startsWith(`${API_BASE}/`)) continue;
    const methods = (Array.isArray(r.method) ? r.method : [r.method]).map(String).filter((m) => METHODS.has(m));
    const config = (r.config ?? {}) as { public?: boolean; permission?: string | null };
    const schema = (r.schema ?? {}) as Partial<Record<Part, z.ZodType>>;
    const schemas: Partial<Record<Part, z.ZodType>> = {};
    for (const part of ['params', 'querystring', 'body'] as const) if (schema[part]) schemas[part] = schema[part];
    const positions = [
      ...positionsOf('params', schemas.params),
      ...positionsOf('querystring', schemas.querystring),
      ...positionsOf('body', schemas.body),
    ];
    // a path param without a params contract still carries whatever the handler reads from it
    for (const m of r.url.matchAll(/:([A-Za-z0-9_]+)/g)) {
      const name = m[1] ?? '';
      if (idName(name) && !positions.some((p) => p.part === 'params' && p.path[0] === name))
        positions.push({ part: 'params', path: [name], array: false });
    }
    for (const method of methods)
      cases.push({
        method: method as RouteCase['method'],
        url: r.url,
        public: config.public === true,
        permission: typeof config.permission === 'string' ? config.permission : null,
        schemas,
        positions,
      });
  }
  return cases.sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

export const positionLabel = (p: IdPosition) => `${p.part === 'querystring' ? 'query' : p.part}.${p.path.join('.')}`;
export const routeLabel = (c: RouteCase) => `${c.method} ${c.url.slice(API_BASE.length)}`;
