import {
  and,
  type AnyColumn,
  count,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  max,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, QueryBuilder } from 'drizzle-orm/pg-core';
import type { Definition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import {
  auditEvents,
  centers,
  files,
  formVersions,
  organisations,
  patients,
  projectMembers,
  projects,
  roles,
  users,
} from '../../db/schema';

/**
 * Whose events a caller may read. `projectId` null: every event of the acting tenant. With a project: the events of
 * that project, i.e. events written in it (`project_id`: the session's current project, or the project a join
 * request is about — so its sign-outs and join decisions too), events on the project itself, events whose old or new
 * value names it (`projectId`, as creations write it), and the later events of an entity whose earlier event named it
 * (a center's update or close after its creation in the project). The value conditions also find the events written
 * before `project_id` existed.
 */
const earlier = alias(auditEvents, 'earlier');
const db0 = new QueryBuilder();

export type AuditScope = { tenantId: string; projectId: string | null };

export type AuditFilter = {
  actorId?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
  from?: Date;
  to?: Date;
  /** Only events with an id up to this one (stable pages). */
  maxId?: number;
};

export type AuditEventRow = {
  id: number;
  at: Date;
  actorId: string | null;
  actorName: string | null;
  actorUsername: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  oldValue: unknown;
  newValue: unknown;
  reason: string | null;
  requestId: string | null;
  ip: string | null;
};

function scopeCondition(scope: AuditScope): SQL {
  const tenant = eq(auditEvents.tenantId, scope.tenantId);
  if (scope.projectId === null) return tenant;
  const p = scope.projectId;
  const namesProject = (t: { newValue: AnyColumn; oldValue: AnyColumn }) =>
    sql`(${t.newValue} ->> 'projectId' = ${p} or ${t.oldValue} ->> 'projectId' = ${p})`;
  const lineage = db0
    .select({ entityType: earlier.entityType, entityId: earlier.entityId })
    .from(earlier)
    .where(and(eq(earlier.tenantId, scope.tenantId), isNotNull(earlier.entityId), namesProject(earlier)));
  const project = or(
    eq(auditEvents.projectId, p),
    and(eq(auditEvents.entityType, 'project'), eq(auditEvents.entityId, p)),
    namesProject(auditEvents),
    sql`(${auditEvents.entityType}, ${auditEvents.entityId}) in (${lineage})`,
  );
  return and(tenant, project) ?? tenant;
}

function where(scope: AuditScope, f: AuditFilter): SQL {
  const conditions: SQL[] = [scopeCondition(scope)];
  if (f.actorId) conditions.push(eq(auditEvents.actorId, f.actorId));
  if (f.action) conditions.push(eq(auditEvents.action, f.action));
  if (f.entityType) conditions.push(eq(auditEvents.entityType, f.entityType));
  if (f.entityId) conditions.push(eq(auditEvents.entityId, f.entityId));
  if (f.from) conditions.push(gte(auditEvents.at, f.from));
  if (f.to) conditions.push(lte(auditEvents.at, f.to));
  if (f.maxId !== undefined) conditions.push(lte(auditEvents.id, f.maxId));
  return and(...conditions) ?? sql`true`;
}

/** The newest event id of the scope and filter (the anchor of stable pages), null when there is none. */
export async function findNewestEventId(db: Executor, scope: AuditScope, f: AuditFilter): Promise<number | null> {
  const [row] = await db
    .select({ id: max(auditEvents.id) })
    .from(auditEvents)
    .where(where(scope, f));
  return row?.id ?? null;
}

export async function countEvents(db: Executor, scope: AuditScope, f: AuditFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(auditEvents).where(where(scope, f));
  return row?.n ?? 0;
}

/** One page, newest first (by id: the order of the chain). */
export async function findEventPage(
  db: Executor,
  scope: AuditScope,
  f: AuditFilter,
  pageOf: { offset: number; limit: number },
): Promise<AuditEventRow[]> {
  return db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      actorId: auditEvents.actorId,
      actorName: users.name,
      actorUsername: users.username,
      action: auditEvents.action,
      entityType: auditEvents.entityType,
      entityId: auditEvents.entityId,
      oldValue: auditEvents.oldValue,
      newValue: auditEvents.newValue,
      reason: auditEvents.reason,
      requestId: auditEvents.requestId,
      ip: auditEvents.ip,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorId))
    .where(where(scope, f))
    .orderBy(desc(auditEvents.id))
    .offset(pageOf.offset)
    .limit(pageOf.limit);
}

export type AuditActorRow = { id: string; name: string; username: string };

/** The users who acted in the scope, by name. */
export async function findActors(db: Executor, scope: AuditScope): Promise<AuditActorRow[]> {
  const actorIds = db
    .selectDistinct({ actorId: auditEvents.actorId })
    .from(auditEvents)
    .where(scopeCondition(scope))
    .as('actor_ids');
  return db
    .select({ id: users.id, name: users.name, username: users.username })
    .from(actorIds)
    .innerJoin(users, eq(users.id, actorIds.actorId))
    .orderBy(users.name, users.username);
}

/** The distinct actions and entity types of the scope. */
export async function findActionsAndEntityTypes(
  db: Executor,
  scope: AuditScope,
): Promise<{ actions: string[]; entityTypes: string[] }> {
  const [actions, entityTypes] = await Promise.all([
    db
      .selectDistinct({ v: auditEvents.action })
      .from(auditEvents)
      .where(scopeCondition(scope))
      .orderBy(auditEvents.action),
    db
      .selectDistinct({ v: auditEvents.entityType })
      .from(auditEvents)
      .where(scopeCondition(scope))
      .orderBy(auditEvents.entityType),
  ]);
  return { actions: actions.map((r) => r.v), entityTypes: entityTypes.map((r) => r.v) };
}

/** The tables whose rows an audit event may name, with the column that reads as the row's name. */
const NAMED_ENTITIES = {
  project: { table: projects, name: projects.name, tenant: projects.tenantId },
  center: { table: centers, name: centers.name, tenant: centers.tenantId },
  user: { table: users, name: users.name, tenant: users.tenantId },
  role: { table: roles, name: roles.name, tenant: roles.tenantId },
  organisation: { table: organisations, name: organisations.name, tenant: organisations.tenantId },
  file: { table: files, name: files.originalName, tenant: files.tenantId },
  // A patient reads as its number: the trail never shows a patient's name.
  patient: { table: patients, name: patients.patientNo, tenant: patients.tenantId },
} as const;

/**
 * Names of the entities a page of events refers to (`type:id` → name), read within the tenant only (built-in roles,
 * which belong to no tenant, are named too); a member is named by its user. Unknown or deleted rows have no name.
 */
export async function findEntityNames(
  db: Executor,
  tenantId: string,
  refs: readonly { entityType: string; entityId: string | null }[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const byType = new Map<string, Set<string>>();
  for (const { entityType, entityId } of refs) {
    if (!entityId || !/^[0-9a-f-]{36}$/i.test(entityId)) continue;
    byType.set(entityType, (byType.get(entityType) ?? new Set()).add(entityId));
  }
  await Promise.all(
    [...byType].map(async ([type, idSet]) => {
      const ids = [...idSet];
      if (type === 'project_member') {
        const rows = await db
          .select({ id: projectMembers.id, name: users.name })
          .from(projectMembers)
          .innerJoin(users, eq(users.id, projectMembers.userId))
          .where(and(eq(projectMembers.tenantId, tenantId), inArray(projectMembers.id, ids)));
        for (const row of rows) names.set(`${type}:${row.id}`, row.name);
        return;
      }
      const entity = NAMED_ENTITIES[type as keyof typeof NAMED_ENTITIES];
      if (!entity) return;
      const inTenant =
        type === 'role' ? or(eq(entity.tenant, tenantId), isNull(entity.tenant)) : eq(entity.tenant, tenantId);
      const idColumn = entity.table.id;
      const rows = await db
        .select({ id: idColumn, name: entity.name })
        .from(entity.table)
        .where(and(inTenant, inArray(idColumn, ids)));
      for (const row of rows) names.set(`${type}:${row.id}`, row.name);
    }),
  );
  return names;
}

/** The definitions of the given form versions (of the tenant): versionId → definition, for naming form fields. */
export async function findFormDefinitions(
  db: Executor,
  tenantId: string,
  versionIds: readonly string[],
): Promise<Map<string, Definition>> {
  const ids = [...new Set(versionIds)].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: formVersions.id, definition: formVersions.definition })
    .from(formVersions)
    .where(and(eq(formVersions.tenantId, tenantId), inArray(formVersions.id, ids)));
  return new Map(rows.map((r) => [r.id, r.definition as Definition]));
}
