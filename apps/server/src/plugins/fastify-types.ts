import type { AuthContext } from '../modules/auth/session.service';
import type { JobQueue } from '../modules/jobs/job-queue';
import type { RouteAudit } from './audit';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyContextConfig {
    /** Reachable without a session. Every route must say `public: true` or give a `permission`. */
    public?: boolean;
    /** The permission code needed, or null for any signed-in user. */
    permission?: string | null;
    /**
     * Reachable by a session whose user still has the initial password (the calls of the 设置密码 dialog: user info,
     * password change, log out). Every other signed-in route answers 428 to such a session.
     */
    initialPassword?: boolean;
    /** Also accept the token from `?access_token=` (file preview links opened by the browser). */
    queryToken?: boolean;
    /** False when the route is opened by browser navigation or `<img>` and cannot send `X-App-Code`. */
    appCode?: boolean;
    /**
     * What a write route (POST, PUT, PATCH, DELETE) leaves in the audit trail: the actions it records, or why it
     * records none (`NOT_AUDITED` in plugins/audit.ts). Required on every write route (plugins/access.ts).
     */
    audit?: RouteAudit;
    /** One line on what the route does, shown as the operation's summary in the OpenAPI document (`plugins/openapi.ts`). */
    summary?: string;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyRequest {
    auth?: AuthContext;
    /** The idempotency key this request holds until its answer is stored (plugins/idempotency.ts). */
    idempotency?: { userId: string; key: string };
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface FastifyInstance {
    /** The job queue of this process (pg-boss, ADR 0014): workers start on ready when JOBS_ENABLED, stop on close. */
    jobs: JobQueue;
  }
}

export {};
