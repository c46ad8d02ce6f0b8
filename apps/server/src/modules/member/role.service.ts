import type { RoleCreateRequest, RoleUpdateRequest, RoleVO } from '@registry/shared/contracts/role';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { MANAGE_MESSAGES as M } from '../../domain/messages/project-messages';
import { isUuid, requireProjectScope, spansAllCenters, type ProjectScope } from '../../domain/scope/project-scope';
import { deleteUnusedRole, insertRole, roleCodeTaken, updateRole, type RoleRow } from './role.repository';
import { listProjectRoles } from '../../domain/membership/membership.repository';

const present = (r: RoleRow): RoleVO => ({
  id: r.id,
  code: r.code,
  name: r.name,
  builtIn: r.builtIn,
  permissions: r.permissions,
  memberCount: r.memberCount,
});

export type RoleService = ReturnType<typeof createRoleService>;

export function createRoleService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** Roles are project-wide: only a manager over all centers changes them. */
  async function writeScope(auth: AuthContext): Promise<ProjectScope> {
    const scope = await requireProjectScope(db, auth);
    if (!spansAllCenters(scope)) throw new AppError(403, ERROR_MESSAGES.forbidden);
    return scope;
  }

  async function customRole(scope: ProjectScope, id: string, builtInMessage: string): Promise<RoleRow> {
    const [row] = isUuid(id) ? await listProjectRoles(db, scope, id) : [];
    if (!row) throw new AppError(404, M.roleNotFound);
    if (row.builtIn) throw new AppError(409, builtInMessage);
    return row;
  }

  return {
    async list(auth: AuthContext): Promise<RoleVO[]> {
      const scope = await requireProjectScope(db, auth);
      return (await listProjectRoles(db, scope)).map(present);
    },

    async create(auth: AuthContext, input: RoleCreateRequest, ctx: AuditContext): Promise<RoleVO> {
      const scope = await writeScope(auth);
      if (await roleCodeTaken(db, scope, input.code)) throw new AppError(409, M.roleCodeTaken);
      const now = clock.now();
      const permissions = [...new Set(input.permissions)];
      const id = await db.transaction(async (tx) => {
        const row = await insertRole(tx, {
          tenantId: scope.tenantId,
          projectId: scope.rootProjectId,
          code: input.code,
          name: input.name,
          permissions,
          at: now,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'role.create',
            entityType: 'role',
            entityId: row.id,
            newValue: { projectId: scope.rootProjectId, code: input.code, name: input.name, permissions },
          },
          now,
        );
        return row.id;
      });
      const [row] = await listProjectRoles(db, scope, id);
      if (!row) throw new AppError(404, M.roleNotFound);
      return present(row);
    },

    async update(auth: AuthContext, input: RoleUpdateRequest, ctx: AuditContext): Promise<RoleVO> {
      const scope = await writeScope(auth);
      const before = await customRole(scope, input.id, M.builtInRoleReadOnly);
      const set: { name?: string; permissions?: string[] } = {};
      if (input.name !== undefined && input.name !== before.name) set.name = input.name;
      if (input.permissions !== undefined) {
        const next = [...new Set(input.permissions)];
        const same = next.length === before.permissions.length && next.every((p) => before.permissions.includes(p));
        if (!same) set.permissions = next;
      }
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          await updateRole(tx, scope, before.id, { ...set, updatedAt: now });
          const oldValue: Record<string, unknown> = {};
          for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = before[k];
          await audit(
            tx,
            ctx,
            { action: 'role.update', entityType: 'role', entityId: before.id, oldValue, newValue: set },
            now,
          );
        });
      }
      const [row] = await listProjectRoles(db, scope, before.id);
      if (!row) throw new AppError(404, M.roleNotFound);
      return present(row);
    },

    async remove(auth: AuthContext, id: string, ctx: AuditContext): Promise<null> {
      const scope = await writeScope(auth);
      const before = await customRole(scope, id, M.builtInRoleDelete);
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!(await deleteUnusedRole(tx, scope, before.id))) throw new AppError(409, M.roleInUse);
        await audit(
          tx,
          ctx,
          {
            action: 'role.delete',
            entityType: 'role',
            entityId: before.id,
            oldValue: { code: before.code, name: before.name, permissions: before.permissions },
          },
          now,
        );
      });
      return null;
    },
  };
}
