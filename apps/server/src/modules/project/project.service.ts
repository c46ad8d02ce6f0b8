import type { CurrentProject, ProjectCount, ProjectListResponse, ProjectVO } from '@registry/shared/contracts/project';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext, SessionService } from '../auth/session.service';
import { findUserById } from '../../domain/users/users.repository';
import { firstOrganisation } from '../../domain/membership/membership.repository';
import { presentCurrentProject, presentProject } from './project.presenter';
import { findProjectInTenant, findVisibleProjects } from './project.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ProjectScope = 'all' | 'owned' | 'joined';
export type ProjectService = ReturnType<typeof createProjectService>;

export function createProjectService(deps: { db: Db; clock: Clock; sessions: SessionService }) {
  const { db, clock } = deps;

  /** A system administrator acting in another tenant sees all of that tenant's projects. */
  const everyProject = (auth: AuthContext) => auth.switched;
  const fallbackRole = (auth: AuthContext) => (everyProject(auth) ? '系统管理员' : '项目成员');

  async function visible(auth: AuthContext, keyword?: string): Promise<ProjectVO[]> {
    const rows = await findVisibleProjects(db, {
      tenantId: auth.tenantId,
      userId: auth.userId,
      everyProject: everyProject(auth),
      ...(keyword ? { keyword } : {}),
    });
    return rows.map((r) => presentProject(r, auth.userId, fallbackRole(auth)));
  }

  return {
    async list(auth: AuthContext, scope: ProjectScope, keyword: string | undefined): Promise<ProjectListResponse> {
      const user = await findUserById(db, auth.userId);
      const all = await visible(auth, keyword);
      const projectVOs =
        scope === 'owned' ? all.filter((p) => p.owned) : scope === 'joined' ? all.filter((p) => !p.owned) : all;
      if (auth.tenantId !== auth.homeTenantId) {
        // A system administrator switched into a tenant: the header names the acting tenant's hospital.
        const hospital = await firstOrganisation(db, auth.tenantId);
        return { departmentName: '', hospitalName: hospital?.name ?? auth.tenantName, projectVOs };
      }
      return { departmentName: user?.departmentName ?? '', hospitalName: user?.hospitalName ?? '', projectVOs };
    },

    async count(auth: AuthContext): Promise<ProjectCount> {
      const all = await visible(auth);
      const owned = all.filter((p) => p.owned).length;
      return { total: all.length, owned, joined: all.length - owned };
    },

    /** Makes the project the session's current one, if the caller may enter it (else exactly like a missing one). */
    async enter(auth: AuthContext, projectId: string, ctx: AuditContext): Promise<CurrentProject> {
      if (!UUID.test(projectId)) throw new AppError(404, ERROR_MESSAGES.projectNotFound);
      const [row] = await findVisibleProjects(db, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        everyProject: everyProject(auth),
        projectId,
      });
      if (!row) throw new AppError(404, ERROR_MESSAGES.projectNotFound);
      await db.transaction(async (tx) => {
        await deps.sessions.setScope(tx, auth.sessionId, { projectId: row.id });
        await audit(
          tx,
          ctx,
          {
            action: 'project.enter',
            entityType: 'project',
            entityId: row.id,
            // the project entered, not the one left: entering is where the project's session begins
            projectId: row.id,
            oldValue: { projectId: auth.projectId },
            newValue: { projectId: row.id },
          },
          clock.now(),
        );
      });
      return presentCurrentProject(row);
    },

    async current(auth: AuthContext): Promise<CurrentProject> {
      const row = auth.projectId ? await findProjectInTenant(db, auth.tenantId, auth.projectId) : undefined;
      if (!row) throw new AppError(404, ERROR_MESSAGES.noCurrentProject);
      return presentCurrentProject(row);
    },
  };
}
