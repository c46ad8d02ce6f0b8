import { and, asc, eq, ilike, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { projectMembers, projects, roles } from '../../db/schema';

const directMember = alias(projectMembers, 'direct_member');
const parentMember = alias(projectMembers, 'parent_member');
const directRole = alias(roles, 'direct_role');
const parentRole = alias(roles, 'parent_role');

export type ProjectRow = {
  id: string;
  code: string;
  name: string;
  parentId: string | null;
  status: 'draft' | 'active' | 'locked' | 'archived';
  diseaseArea: string | null;
  description: string | null;
  ownerId: string;
  createdAt: Date;
  roleName: string | null;
};

/**
 * Projects of the tenant the user may see: owned, joined, or a sub-project of one joined (a sub-project shares its
 * parent's members). With `everyProject` (a system administrator acting in the tenant) every project of the tenant.
 * Parents come first, each followed by its sub-projects.
 */
export async function findVisibleProjects(
  db: Executor,
  q: { tenantId: string; userId: string; everyProject: boolean; keyword?: string; projectId?: string },
): Promise<ProjectRow[]> {
  const conditions: SQL[] = [eq(projects.tenantId, q.tenantId)];
  if (!q.everyProject) {
    const visible = or(eq(projects.ownerId, q.userId), isNotNull(directMember.id), isNotNull(parentMember.id));
    if (visible) conditions.push(visible);
  }
  if (q.keyword) {
    const pattern = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(ilike(projects.name, pattern), ilike(projects.code, pattern));
    if (match) conditions.push(match);
  }
  if (q.projectId) conditions.push(eq(projects.id, q.projectId));
  return db
    .select({
      id: projects.id,
      code: projects.code,
      name: projects.name,
      parentId: projects.parentId,
      status: projects.status,
      diseaseArea: projects.diseaseArea,
      description: projects.description,
      ownerId: projects.ownerId,
      createdAt: projects.createdAt,
      roleName: sql<string | null>`coalesce(${directRole.name}, ${parentRole.name})`,
    })
    .from(projects)
    .leftJoin(
      directMember,
      and(
        eq(directMember.projectId, projects.id),
        eq(directMember.userId, q.userId),
        eq(directMember.tenantId, q.tenantId),
      ),
    )
    .leftJoin(directRole, eq(directRole.id, directMember.roleId))
    .leftJoin(
      parentMember,
      and(
        eq(parentMember.projectId, projects.parentId),
        eq(parentMember.userId, q.userId),
        eq(parentMember.tenantId, q.tenantId),
      ),
    )
    .leftJoin(parentRole, eq(parentRole.id, parentMember.roleId))
    .where(and(...conditions))
    .orderBy(
      sql`coalesce(${projects.parentId}, ${projects.id})`,
      sql`${projects.parentId} nulls first`,
      asc(projects.createdAt),
      asc(projects.code),
    );
}

export async function findProjectInTenant(db: Executor, tenantId: string, projectId: string) {
  const rows = await db
    .select({ id: projects.id, code: projects.code, name: projects.name, parentId: projects.parentId })
    .from(projects)
    .where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId)))
    .limit(1);
  return rows[0];
}
