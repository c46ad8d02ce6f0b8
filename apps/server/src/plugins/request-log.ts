import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { API_BASE } from '@registry/shared/constants';

/** Every request gets a random id: logged, sent back in `x-request-id` and in error bodies, stored with audit events. */
export const genRequestId = (): string => randomUUID();

const SAFE_KEY = /^[A-Za-z0-9_.[\]-]{1,64}$/;

/**
 * The URL as logged: the path and the query's keys, every value replaced by `***` (`/auth/sms?phone=***`). Query
 * values are what a caller typed — phone numbers, tokens, search words — and never reach the log; a key that is not
 * a plain identifier is logged as `?` too.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1).split('#')[0] ?? '';
  const keys = query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const key = part.split('=')[0] ?? '';
      return `${SAFE_KEY.test(key) ? key : '?'}=***`;
    });
  return keys.length > 0 ? `${url.slice(0, q)}?${keys.join('&')}` : url.slice(0, q);
}

export type LoggedError = {
  type: string;
  message: string;
  code?: string;
  /** The SQL text of a failed query (placeholders `$1`, never the parameters). */
  query?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  stack?: string;
  cause?: LoggedError;
};

/** A driver or ORM error of a query: Drizzle's (carries `query` and `params`) or PostgreSQL's (carries `severity`). */
function isDbError(e: Record<string, unknown>): boolean {
  return 'params' in e || (typeof e.severity === 'string' && typeof e.code === 'string');
}

/**
 * The `err` serializer of every log line. A failed query never logs its parameters (a patient's name searched for, a
 * phone, a reason): Drizzle's message (`Failed query: … params: …`) is cut to the SQL text, PostgreSQL's message and
 * detail (which quote the offending value: `invalid input syntax for type uuid: "…"`, `Key (name)=(…)`) keep their
 * code, routine and the names of the constraint, table and column only. Stacks lose their first line (the message).
 */
export function serializeError(err: unknown, depth = 0): LoggedError {
  if (err === null || typeof err !== 'object') return { type: typeof err, message: String(err) };
  const e = err as Record<string, unknown>;
  const type = typeof e.name === 'string' ? e.name : (e.constructor?.name ?? 'Error');
  const rawMessage = typeof e.message === 'string' ? e.message : '';
  const db = isDbError(e);
  const out: LoggedError = { type, message: rawMessage };
  if (db) {
    if (typeof e.query === 'string') {
      out.query = e.query.slice(0, 2000);
      out.message = 'Failed query (parameters not logged)';
    } else {
      out.message = rawMessage.replace(/"[^"]*"|'[^']*'|\([^)]*\)/g, '***').slice(0, 300);
    }
    for (const k of ['constraint', 'table', 'column', 'routine'] as const) {
      if (typeof e[k] === 'string') out[k] = e[k];
    }
  }
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = String(e.code);
  if (typeof e.stack === 'string') {
    const frames = e.stack.split('\n').filter((line) => /^\s+at /.test(line));
    out.stack = db ? frames.join('\n') : e.stack;
  }
  if (e.cause !== undefined && depth < 4) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/**
 * The logger options: requests logged as method, redacted URL (`redactUrl`), IP and request id only; errors through
 * `serializeError`.
 */
export function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const base = typeof logger === 'object' ? logger : {};
  return {
    ...base,
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        ip: req.ip,
        requestId: req.id,
      }),
      err: (err: unknown) => {
        const out = serializeError(err);
        return { ...out, stack: out.stack ?? '' };
      },
    },
  };
}

/** `x-request-id` on every answer; API answers (which may carry patient data) are `no-store` unless a route chose. */
export function registerRequestHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', String(request.id));
    if (request.url.startsWith(`${API_BASE}/`) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
}
