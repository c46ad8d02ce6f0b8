import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_BASE, VERSION_FILE } from '@registry/shared/constants';
import { versionFile } from '@registry/shared/contracts/version';
import type { Db } from '../../db/client';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { pingDatabase } from './system.repository';
import { binaryResponse } from '../../plugins/binary';
import { ok, okSchema } from '../../plugins/envelope';

const ASSETS_PREFIX = '/assets/';

/**
 * Health, `version.json`, and the built web app (static files with SPA fallback to index.html). Hashed files under
 * `/assets/` are cached for a year as immutable; index.html, the SPA fallback and every other file `no-cache`.
 */
export async function registerSystemRoutes(
  root: FastifyInstance,
  deps: { db: Db; webDist: string; startedAt: Date },
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const webDist = path.resolve(deps.webDist);
  const hasWeb = existsSync(path.join(webDist, 'index.html'));

  app.get(
    `${API_BASE}/health`,
    { schema: { response: okSchema(z.object({ db: z.literal('ok') })) }, config: { public: true, appCode: false } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await pingDatabase(deps.db);
      } catch {
        throw new AppError(503, ERROR_MESSAGES.dbUnavailable);
      }
      return ok({ db: 'ok' as const });
    },
  );

  /** Not enveloped: the web compares `version` on every navigation. A new build rewrites the file. */
  app.get(
    VERSION_FILE,
    { schema: { response: { 200: versionFile } }, config: { public: true, appCode: false } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      try {
        const parsed = versionFile.safeParse(JSON.parse(await readFile(path.join(webDist, 'version.json'), 'utf8')));
        if (parsed.success) return parsed.data;
      } catch {
        // no built web app: fall through to the server's start time
      }
      return { version: deps.startedAt.toISOString() };
    },
  );

  // preCompressed: the build writes `.br` and `.gz` beside every compressible file (apps/web/vite.config.ts); sendFile
  // picks one by Accept-Encoding, sets Content-Encoding and `Vary: accept-encoding`, and falls back to the plain file.
  if (hasWeb) await app.register(fastifyStatic, { root: webDist, serve: false, preCompressed: true });

  app.get(
    '/*',
    { schema: { response: binaryResponse }, config: { public: true, appCode: false } },
    async (request, reply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (urlPath.startsWith(`${API_BASE}/`) || urlPath === API_BASE)
        throw new AppError(404, ERROR_MESSAGES.routeNotFound);
      if (!hasWeb) throw new AppError(404, '页面不存在（前端尚未构建）');
      let rel: string;
      try {
        rel = path.posix.normalize(decodeURIComponent(urlPath));
      } catch {
        throw new AppError(400, ERROR_MESSAGES.badRequest);
      }
      const full = path.join(webDist, rel);
      if (full.startsWith(webDist + path.sep) && existsSync(full) && statSync(full).isFile()) {
        const immutable = rel.startsWith(ASSETS_PREFIX);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        return reply.sendFile(path.relative(webDist, full), { cacheControl: false });
      }
      if (path.posix.extname(rel) !== '') throw new AppError(404, '页面不存在');
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    },
  );
}
