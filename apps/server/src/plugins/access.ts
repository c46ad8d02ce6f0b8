import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_SETUP_REQUIRED } from '@registry/shared/access';
import { ACCESS_TOKEN_QUERY, API_BASE, APP_CODE } from '@registry/shared/constants';
import { AppError, ERROR_MESSAGES } from '../lib/errors';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { PATIENT_DATA_PERMISSIONS } from '../modules/auth/acting-permissions';
import type { AuthContext, SessionService } from '../modules/auth/session.service';
import { audit, auditContext, NOT_AUDITED, type RouteAudit } from './audit';
import './fastify-types';

/**
 * Access is data on the route: `config: { public: true }` or `config: { permission: 'x.y' | null }` (null = any
 * signed-in user). One onRequest hook checks it, before any body is read (an unauthenticated upload is refused
 * without touching the disk). A route without an access rule fails at registration, and so does a write route
 * (POST, PUT, PATCH, DELETE) without its audit declaration (`config.audit`, see RouteAudit in ./audit).
 *
 * `X-App-Code: WEB` is required on every API call, because the web always sends it, except on routes marked
 * `appCode: false`: those a browser opens by navigation or `<img src>` (file preview, health), which cannot add
 * headers. Its absence there costs nothing: they still need a token or are public.
 *
 * A session whose user still has the initial password reaches only the routes marked `initialPassword: true` (the
 * calls of the 设置密码 dialog); every other signed-in route answers 428 (PASSWORD_SETUP_REQUIRED), which the web
 * turns into the dialog rather than a sign-out. Checked here, before the permission, so no route can forget it.
 */
export function registerAccess(app: FastifyInstance, deps: { sessions: SessionService; db: Db; clock: Clock }): void {
  app.addHook('onRoute', (route) => {
    const config = route.config;
    const hasRule = config?.public === true || (config !== undefined && 'permission' in config);
    if (!hasRule)
      throw new Error(
        `route ${String(route.method)} ${route.url} has no access rule (config.public or config.permission)`,
      );
    if (isWrite(route.method) && !validAudit(config?.audit))
      throw new Error(
        `route ${String(route.method)} ${route.url} does not declare its audit (config.audit: the actions it ` +
          'records, or NOT_AUDITED.* with the reason it records none)',
      );
  });

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const config = request.routeOptions.config;
    const isApi = request.url.startsWith(`${API_BASE}/`);
    if (isApi && config.appCode !== false && request.headers['x-app-code'] !== APP_CODE) {
      throw new AppError(400, ERROR_MESSAGES.missingAppCode);
    }
    if (config.public === true) return;
    const token = readToken(request, config.queryToken === true);
    const auth = token ? await deps.sessions.resolve(token) : null;
    if (!auth) throw new AppError(401, ERROR_MESSAGES.unauthenticated);
    if (auth.initPwd && config.initialPassword !== true) {
      throw new AppError(PASSWORD_SETUP_REQUIRED.status, PASSWORD_SETUP_REQUIRED.message);
    }
    if (typeof config.permission === 'string' && !auth.permissions.includes(config.permission)) {
      throw new AppError(403, ERROR_MESSAGES.forbidden);
    }
    request.auth = auth;
    // A system administrator under a tenant's support access: every call on patient data is on that tenant's record
    // (the route's pattern only; ids and query values may carry PHI). What the codes allow is `acting-permissions.ts`.
    if (
      auth.supportAccessUntil &&
      typeof config.permission === 'string' &&
      PATIENT_DATA_PERMISSIONS.has(config.permission)
    ) {
      await audit(
        deps.db,
        auditContext(request),
        {
          action: 'support.access',
          entityType: 'route',
          entityId: `${request.method} ${request.routeOptions.url ?? ''}`,
          newValue: { projectId: auth.projectId, supportAccessUntil: auth.supportAccessUntil.toISOString() },
        },
        deps.clock.now(),
      );
    }
  });
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** POST, PUT, PATCH or DELETE: a route that may change data. */
export function isWrite(method: string | string[]): boolean {
  return (Array.isArray(method) ? method : [method]).some((m) => WRITE_METHODS.has(m.toUpperCase()));
}

function validAudit(audit: RouteAudit | undefined): boolean {
  if (audit === undefined) return false;
  if ('none' in audit) return Object.values(NOT_AUDITED).some((n) => n.none === audit.none);
  return audit.length > 0 && audit.every((a) => /^[a-z_.-]+$/.test(a));
}

function readToken(request: FastifyRequest, allowQuery: boolean): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (match?.[1]) return match[1];
  }
  if (allowQuery) {
    const q = (request.query as Record<string, unknown> | undefined)?.[ACCESS_TOKEN_QUERY];
    if (typeof q === 'string' && q.length > 0) return q;
  }
  return undefined;
}

/** The caller of a signed-in route (set by the access hook). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError(401, ERROR_MESSAGES.unauthenticated);
  return request.auth;
}
