import type { z } from 'zod';
import {
  auditActionLabel,
  auditEntityLabel,
  type auditPageRequest,
  type AuditOptionsResponse,
  type AuditPageResponse,
} from '@registry/shared/contracts/audit';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import type { AuthContext } from '../auth/session.service';
import { formVersionIdsOf, idRefsOf, presentAuditEvent } from './audit.presenter';
import {
  countEvents,
  findEntityNames,
  findFormDefinitions,
  findActionsAndEntityTypes,
  findActors,
  findEventPage,
  findNewestEventId,
  type AuditFilter,
  type AuditScope,
} from './audit.repository';
import { pageTotal } from '../../lib/page-total';

export type AuditPageQuery = z.output<typeof auditPageRequest>;

export type AuditService = ReturnType<typeof createAuditService>;

/**
 * The scope comes from the session only: a tenant-level `audit.view` reads the acting tenant's trail, a project-level
 * one (a project role) the current project's.
 */
export function auditScopeOf(auth: AuthContext): AuditScope {
  const tenantWide = auth.tenantPermissions.includes(PERMISSIONS.auditView);
  return { tenantId: auth.tenantId, projectId: tenantWide ? null : auth.projectId };
}

export function createAuditService(deps: { db: Db }) {
  const { db } = deps;

  async function page(auth: AuthContext, q: AuditPageQuery): Promise<AuditPageResponse> {
    const scope = auditScopeOf(auth);
    const filter: AuditFilter = {
      ...(q.actorId ? { actorId: q.actorId } : {}),
      ...(q.action ? { action: q.action } : {}),
      ...(q.entityType ? { entityType: q.entityType } : {}),
      ...(q.entityId ? { entityId: q.entityId } : {}),
      ...(q.from ? { from: new Date(q.from) } : {}),
      ...(q.to ? { to: new Date(q.to) } : {}),
    };
    const anchorId = q.anchorId ?? (await findNewestEventId(db, scope, filter));
    if (anchorId === null) return { records: [], total: 0, current: q.current, size: q.size, anchorId: null };
    const anchored = { ...filter, maxId: anchorId };
    const offset = (q.current - 1) * q.size;
    const rows = await findEventPage(db, scope, anchored, { offset, limit: q.size });
    const total = await pageTotal({ offset, size: q.size, rows: rows.length }, () => countEvents(db, scope, anchored));
    const [names, definitions] = await Promise.all([
      findEntityNames(db, scope.tenantId, [...rows, ...rows.flatMap(idRefsOf)]),
      findFormDefinitions(db, scope.tenantId, rows.flatMap(formVersionIdsOf)),
    ]);
    const records = rows.map((row) => presentAuditEvent(row, names, definitions));
    return { records, total, current: q.current, size: q.size, anchorId };
  }

  async function options(auth: AuthContext): Promise<AuditOptionsResponse> {
    const scope = auditScopeOf(auth);
    const [actors, { actions, entityTypes }] = await Promise.all([
      findActors(db, scope),
      findActionsAndEntityTypes(db, scope),
    ]);
    return {
      actors,
      actions: actions.map((value) => ({ value, label: auditActionLabel(value) })),
      entityTypes: entityTypes.map((value) => ({ value, label: auditEntityLabel(value) })),
    };
  }

  return { page, options };
}
