import { randomUUID } from 'node:crypto';
import path from 'node:path';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { AppConfig } from './config/config';
import { createDb } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { AppError, ERROR_MESSAGES } from './lib/errors';
import { API_BASE } from '@registry/shared/constants';
import { registerAuthRoutes, type LoginRateLimit } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { svgCaptchaGenerator, type CaptchaGenerator } from './modules/auth/captcha';
import { createSessionService } from './modules/auth/session.service';
import { createOutboxSmsProvider, type SmsProvider } from './modules/auth/sms-provider';
import { createLocalFileStorage, type FileStorage } from './modules/file/file-storage';
import { registerFileRoutes } from './modules/file/file.routes';
import { createFileService } from './modules/file/file.service';
import { registerMenuRoutes } from './modules/menu/menu.routes';
import { createMenuService } from './modules/menu/menu.service';
import { registerProjectRoutes } from './modules/project/project.routes';
import { createProjectService } from './modules/project/project.service';
import { registerSystemRoutes } from './modules/system/system.routes';
import { registerUserRoutes } from './modules/user/user.routes';
import { createUserService } from './modules/user/user.service';
import { registerAccess } from './plugins/access';
import { registerErrorHandler } from './plugins/error-handler';
import { registerJsonBody } from './plugins/json-body';

let zodConfigured = false;
/** Zod messages in Chinese; a missing value reads '不能为空'. */
function configureZod(): void {
  if (zodConfigured) return;
  zodConfigured = true;
  z.config(z.locales.zhCN());
  z.config({
    customError: (issue) => {
      if (issue.code === 'invalid_type' && issue.input === undefined) return '不能为空';
      // A discriminated union reports the whole object as input and the discriminator as the path.
      if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string') {
        const value = (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator];
        return value === undefined ? '不能为空' : '取值无效';
      }
      return undefined;
    },
  });
}

/** Tokens never reach the log: `?access_token=` of preview links is masked in logged URLs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1***');
}

function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
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

export type AppDeps = {
  config: AppConfig;
  pool: pg.Pool;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  smsProvider?: SmsProvider;
  fileStorage?: FileStorage;
  captcha?: CaptchaGenerator;
  /** Per-IP limit of `POST auth/login` and `GET auth/sms` (default: LOGIN_RATE_LIMIT_PER_MINUTE a minute); captcha and QR images get 3×. */
  loginRateLimit?: LoginRateLimit;
  /** Shown by `version.json` when the web app has none. */
  startedAt?: Date;
  /** Sees every route as it is registered (the route-table test). */
  routeObserver?: (route: RouteOptions) => void;
};

/** Builds the whole application without listening; tests drive it with `app.inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  configureZod();
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: withRedaction(deps.logger ?? false),
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = createDb(deps.pool);
  const sessions = createSessionService({ db, clock, config });
  const sms = deps.smsProvider ?? createOutboxSmsProvider({ db, clock, logger: app.log });
  const storage = deps.fileStorage ?? createLocalFileStorage(path.join(config.dataDir, 'files'));

  registerErrorHandler(app, { uploadMaxBytes: config.uploadMaxBytes });
  registerJsonBody(app);
  app.setNotFoundHandler((request) => {
    throw new AppError(404, request.url.startsWith('/api/') ? ERROR_MESSAGES.routeNotFound : '页面不存在');
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', String(request.id));
    // API answers may carry patient data: never cached unless the route chose otherwise.
    if (request.url.startsWith(`${API_BASE}/`) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'upgrade-insecure-requests': null },
    },
    hsts: false,
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, ERROR_MESSAGES.tooManyRequests),
  });
  await app.register(multipart, {
    limits: {
      fileSize: config.uploadMaxBytes,
      files: config.uploadMaxFiles,
      fields: 20,
      parts: config.uploadMaxFiles + 20,
      fieldSize: 64 * 1024,
    },
  });

  if (deps.routeObserver) {
    const observe = deps.routeObserver;
    app.addHook('onRoute', (route) => observe(route));
  }
  registerAccess(app, { sessions });
  const loginRateLimit = deps.loginRateLimit ?? { max: config.loginRateLimitPerMinute, timeWindow: 60_000 };

  registerAuthRoutes(app, {
    auth: createAuthService({ db, clock, config, sessions, sms, captcha: deps.captcha ?? svgCaptchaGenerator }),
    loginRateLimit: loginRateLimit,
    imageRateLimit: { ...loginRateLimit, max: loginRateLimit.max * 3 },
  });
  registerMenuRoutes(app, { menu: createMenuService({ db }) });
  registerUserRoutes(app, { users: createUserService({ db, clock, sessions }) });
  registerProjectRoutes(app, { projects: createProjectService({ db, clock, sessions }) });
  registerFileRoutes(app, { files: createFileService({ db, clock, storage }) });
  await registerSystemRoutes(app, { db, webDist: config.webDist, startedAt: deps.startedAt ?? clock.now() });

  return app;
}
