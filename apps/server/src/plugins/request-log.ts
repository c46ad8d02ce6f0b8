import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { API_BASE } from '@registry/shared/constants';

/** Every request gets a random id: logged, sent back in `x-request-id` and in error bodies, stored with audit events. */
export const genRequestId = (): string => randomUUID();

/** Tokens never reach the log: `?access_token=` of preview links is masked in logged URLs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1***');
}

/** The logger options with a request serializer that logs method, masked URL, IP and request id only. */
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
