import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { AppError, ERROR_MESSAGES } from '../lib/errors';
import type { createPgRateLimitStore } from './rate-limit-store';

/**
 * Helmet's headers (CSP allowing `blob:`/`data:` images for the captcha, QR code and previews; HSTS only when
 * HSTS_ENABLED, for a deployment served over TLS: `max-age` HSTS_MAX_AGE, without subdomains), rate limiting (per
 * route, through `config.rateLimit`, counted in PostgreSQL for every instance; refusals are the 429 envelope) and multipart uploads with the size and count
 * limits of the configuration.
 */
export async function registerSecurity(
  app: FastifyInstance,
  opts: {
    uploadMaxBytes: number;
    uploadMaxFiles: number;
    /** HSTS max-age in seconds, null = no HSTS. */ hstsMaxAge: number | null;
    /** Where the rate limits count (rate-limit-store.ts: PostgreSQL, shared by every instance). */
    rateLimitStore: ReturnType<typeof createPgRateLimitStore>;
  },
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'upgrade-insecure-requests': null },
    },
    hsts: opts.hstsMaxAge === null ? false : { maxAge: opts.hstsMaxAge, includeSubDomains: false, preload: false },
  });
  await app.register(rateLimit, {
    global: false,
    store: opts.rateLimitStore,
    errorResponseBuilder: () => new AppError(429, ERROR_MESSAGES.tooManyRequests),
  });
  await app.register(multipart, {
    limits: {
      fileSize: opts.uploadMaxBytes,
      files: opts.uploadMaxFiles,
      fields: 20,
      parts: opts.uploadMaxFiles + 20,
      fieldSize: 64 * 1024,
    },
  });
}
