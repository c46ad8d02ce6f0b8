import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client';
import { insertAuditRow, type AuditRow } from './audit.repository';

export type AuditContext = {
  actorId: string | null;
  tenantId: string | null;
  /** The session's current project (absent or null: none), written as the event's project_id. */
  projectId?: string | null;
  requestId: string;
  ip: string | null;
};

export type AuditEvent = {
  action: string;
  entityType: string;
  entityId?: string | null;
  oldValue?: unknown;
  newValue?: unknown;
  reason?: string | null;
  /** Overrides of the request's context (e.g. the actor of a sign-in is known only after the password check). */
  actorId?: string | null;
  tenantId?: string | null;
  /** The project the event is about when it is not the session's current one (a join request's project). */
  projectId?: string | null;
};

/**
 * A write route's audit declaration (`config.audit`): the actions it records — when it changes something (a save that
 * changes nothing records nothing) or, for a read sent as POST, when it shows what the trail must hold (unmasked
 * identity numbers) — or `{ none: reason }`, one of NOT_AUDITED. Checked at registration (plugins/access.ts) and by
 * test/audit-routes.test.ts, which also drives a sample of routes and finds the declared action by the request id.
 */
export type RouteAudit = readonly [string, ...string[]] | { readonly none: string };

/** The reasons a write route may record no audit event: none of them changes registry data. */
export const NOT_AUDITED = {
  /** A list, page, count or search sent as POST because its filter is a body. */
  read: { none: 'a read sent as POST: its filter is a body' },
  /** Reads an upload or a body and answers what it would do or what is wrong; writes nothing. */
  check: { none: 'a check, parse or dry run: writes nothing' },
  /** The QR sign-in's scan by the phone: marks a short-lived login code as scanned (the confirm is audited). */
  qrScan: { none: 'marks a sign-in code as scanned; the confirmation is audited' },
} as const satisfies Record<string, RouteAudit>;

/**
 * The audit context of a request: the session's user, acting tenant and current project, the request id and the
 * client IP.
 */
export function auditContext(request: FastifyRequest): AuditContext {
  return {
    actorId: request.auth?.userId ?? null,
    tenantId: request.auth?.tenantId ?? null,
    projectId: request.auth?.projectId ?? null,
    requestId: String(request.id),
    ip: request.ip ?? null,
  };
}

/**
 * Writes one audit event with the executor of the change, so it commits or rolls back with it: call it inside the
 * change's transaction. Values must never carry password hashes or tokens. The insert takes no lock another
 * transaction waits for: the event is sealed after commit (ADR 0013).
 */
export async function audit(tx: Executor, ctx: AuditContext, event: AuditEvent, at?: Date): Promise<void> {
  // A prepared statement: every audited call writes one, and the insert's shape never changes.
  await insertAuditRow(tx, auditRow(ctx, event, at));
}

/**
 * The row `audit` inserts. For a writer that folds its audit event into one statement with the change itself (see
 * `modules/patient-record/record-writer.ts`): same columns, same rules.
 */
export function auditRow(ctx: AuditContext, event: AuditEvent, at?: Date): AuditRow {
  return {
    tenantId: event.tenantId !== undefined ? event.tenantId : ctx.tenantId,
    projectId: event.projectId !== undefined ? event.projectId : (ctx.projectId ?? null),
    actorId: event.actorId !== undefined ? event.actorId : ctx.actorId,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId ?? null,
    oldValue: event.oldValue ?? null,
    newValue: event.newValue ?? null,
    reason: event.reason ?? null,
    requestId: ctx.requestId,
    ip: ctx.ip,
    ...(at ? { at } : {}),
  };
}
