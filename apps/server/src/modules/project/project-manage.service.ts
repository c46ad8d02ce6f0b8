import type {
  JoinRequestApprove,
  JoinRequestCreate,
  JoinRequestOptions,
  JoinRequestPageRequest,
  JoinRequestRefuse,
  JoinRequestVO,
} from '@registry/shared/contracts/join-request';
import type { OrganisationOption } from '@registry/shared/contracts/organisation';
import {
  PROJECT_STATUS_TRANSITIONS,
  type JoinableProject,
  type ProjectCreateRequest,
  type ProjectStatusRequest,
  type ProjectUpdateRequest,
  type ProjectVO,
  type TenantDoctor,
} from '@registry/shared/contracts/project';
import { PERMISSIONS } from '@registry/shared/permissions';
import { BUILT_IN_ROLES } from '@registry/shared/roles';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES, isUniqueViolation } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { listProjectRoles } from '../../domain/membership/membership.repository';
import { MANAGE_MESSAGES as M } from '../../domain/messages/project-messages';
import {
  builtInRoleIdOf,
  decideJoinRequest,
  findFullProject,
  findJoinRequest,
  findOrganisationByName,
  findPendingJoinRequest,
  findProjectByCode,
  listActiveCenters,
  getJoinRequestRow,
  insertCenter,
  insertJoinRequest,
  insertOrganisation,
  insertProject,
  listOrganisations,
  listOwnJoinRequests,
  listTenantDoctors,
  pageManageableJoinRequests,
  searchJoinable,
  updateChildrenStatus,
  updateProject,
  type JoinRequestRow,
  PROJECT_CODE_UNIQUE,
} from './project-manage.repository';
import {
  findAssignableRole,
  findMembership,
  findProjectCenter,
  homeOrganisationOf,
  insertMember,
} from '../../domain/membership/membership.repository';
import { unlimitedProjects, type ProjectQuotaCheck } from './project-quota';
import { findProjectRights, isUuid, requireProjectScope } from '../../domain/scope/project-scope';

type ProjectRecord = NonNullable<Awaited<ReturnType<typeof findFullProject>>>;

const notFound = () => new AppError(404, ERROR_MESSAGES.projectNotFound);

function presentManaged(row: ProjectRecord, userId: string, roleName: string): ProjectVO {
  return {
    id: row.id,
    projectCode: row.code,
    projectName: row.name,
    subProject: row.parentId !== null,
    parentId: row.parentId,
    status: row.status,
    diseaseArea: row.diseaseArea,
    description: row.description,
    roleName,
    owned: row.ownerId === userId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The audited fields of a project (old and new values). */
const projectValues = (p: ProjectRecord) => ({
  code: p.code,
  name: p.name,
  diseaseArea: p.diseaseArea,
  description: p.description,
  status: p.status,
  parentId: p.parentId,
});

function presentJoinRequest(row: JoinRequestRow): JoinRequestVO {
  return {
    id: row.id,
    projectId: row.projectId,
    projectCode: row.projectCode,
    projectName: row.projectName,
    userId: row.userId,
    username: row.username,
    userName: row.userName,
    departmentName: row.departmentName,
    message: row.message,
    status: row.status,
    reason: row.reason,
    roleName: row.roleName,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    decidedByName: row.decidedByName,
  };
}

export type ProjectManageService = ReturnType<typeof createProjectManageService>;

export function createProjectManageService(deps: { db: Db; clock: Clock; projectQuota?: ProjectQuotaCheck }) {
  const { db, clock } = deps;
  const quota = deps.projectQuota ?? unlimitedProjects;
  const everyProject = (auth: AuthContext) => auth.switched;

  /** The project with the caller's right to manage it; a foreign or unknown id and a mere viewer all answer 404/403. */
  async function manageable(auth: AuthContext, projectId: string) {
    const rights = isUuid(projectId) ? await findProjectRights(db, auth, projectId) : undefined;
    if (!rights || (!rights.isMember && !rights.isOwner && !everyProject(auth))) throw notFound();
    if (!rights.canManage) throw new AppError(403, ERROR_MESSAGES.forbidden);
    return rights;
  }

  async function ensureCodeFree(auth: AuthContext, code: string, exceptId?: string) {
    const taken = await findProjectByCode(db, auth.tenantId, code);
    if (taken && taken.id !== exceptId) throw new AppError(409, M.projectCodeTaken);
  }

  /** A code taken by a concurrent request after `ensureCodeFree` (the database's index refuses it): the same 409. */
  function codeTakenMeanwhile(err: unknown): never {
    if (isUniqueViolation(err, PROJECT_CODE_UNIQUE)) throw new AppError(409, M.projectCodeTaken);
    throw err;
  }

  async function decidable(auth: AuthContext, id: string) {
    const request = isUuid(id) ? await findJoinRequest(db, auth.tenantId, id) : undefined;
    if (!request) throw new AppError(404, M.joinRequestNotFound);
    const rights = await findProjectRights(db, auth, request.projectId);
    if (!rights?.canManage) throw new AppError(404, M.joinRequestNotFound);
    if (request.status !== 'pending') throw new AppError(409, M.joinRequestDecided);
    return { request, rights };
  }

  return {
    /** A top-level project (tenant `project.create`) or a sub-project (manager of the parent). */
    async create(auth: AuthContext, input: ProjectCreateRequest, ctx: AuditContext): Promise<ProjectVO> {
      let parentId: string | null = null;
      if (input.parentId) {
        const parent = await manageable(auth, input.parentId);
        if (parent.project.parentId !== null) throw new AppError(409, M.noGrandchildren);
        if (parent.project.status === 'archived') throw new AppError(409, M.parentArchived);
        parentId = parent.project.id;
      } else if (!auth.tenantPermissions.includes(PERMISSIONS.projectCreate)) {
        throw new AppError(403, ERROR_MESSAGES.forbidden);
      }
      await ensureCodeFree(auth, input.code);
      const now = clock.now();
      const created = await db
        .transaction(async (tx) => {
          if (!parentId) await quota(tx, { tenantId: auth.tenantId, tenantType: auth.tenantType });
          const project = await insertProject(tx, {
            tenantId: auth.tenantId,
            parentId,
            code: input.code,
            name: input.name,
            diseaseArea: input.diseaseArea ?? null,
            description: input.description ?? null,
            status: input.status,
            ownerId: auth.userId,
            createdAt: now,
            updatedAt: now,
          });
          let centerId: string | null = null;
          if (!parentId) {
            const ownerRole = await builtInRoleIdOf(tx, BUILT_IN_ROLES.projectOwner.code);
            if (!ownerRole) throw new Error('built-in role project_owner missing');
            await insertMember(tx, {
              tenantId: auth.tenantId,
              projectId: project.id,
              userId: auth.userId,
              roleId: ownerRole,
              centerId: null,
            });
            const org = await homeOrganisationOf(tx, auth.tenantId, auth.userId);
            if (org) {
              const center = await insertCenter(tx, {
                tenantId: auth.tenantId,
                projectId: project.id,
                organisationId: org.id,
                code: 'C01',
                name: org.name,
                isDefault: true,
                createdAt: now,
                updatedAt: now,
              });
              centerId = center.id;
            }
          }
          await audit(
            tx,
            ctx,
            {
              action: 'project.create',
              entityType: 'project',
              entityId: project.id,
              newValue: { ...projectValues(project), defaultCenterId: centerId },
            },
            now,
          );
          return project;
        })
        .catch(codeTakenMeanwhile);
      return presentManaged(created, auth.userId, BUILT_IN_ROLES.projectOwner.name);
    },

    async update(auth: AuthContext, input: ProjectUpdateRequest, ctx: AuditContext): Promise<ProjectVO> {
      const rights = await manageable(auth, input.id);
      const before = await findFullProject(db, auth.tenantId, rights.project.id);
      if (!before) throw notFound();
      if (before.status === 'archived') throw new AppError(409, M.projectArchived);
      const set: Partial<Pick<ProjectRecord, 'code' | 'name' | 'diseaseArea' | 'description'>> = {};
      if (input.code !== undefined && input.code !== before.code) {
        await ensureCodeFree(auth, input.code, before.id);
        set.code = input.code;
      }
      if (input.name !== undefined && input.name !== before.name) set.name = input.name;
      if (input.diseaseArea !== undefined && input.diseaseArea !== before.diseaseArea)
        set.diseaseArea = input.diseaseArea;
      if (input.description !== undefined && input.description !== before.description)
        set.description = input.description;
      const after = { ...before, ...set };
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db
          .transaction(async (tx) => {
            await updateProject(tx, auth.tenantId, before.id, { ...set, updatedAt: now });
            const oldValue: Record<string, unknown> = {};
            for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = before[k];
            await audit(
              tx,
              ctx,
              { action: 'project.update', entityType: 'project', entityId: before.id, oldValue, newValue: set },
              now,
            );
          })
          .catch(codeTakenMeanwhile);
      }
      return presentManaged(after, auth.userId, rights.isOwner ? BUILT_IN_ROLES.projectOwner.name : '项目成员');
    },

    /** draft → active → locked ⇄ active; any → archived (with its sub-projects); archived → active. */
    async changeStatus(auth: AuthContext, input: ProjectStatusRequest, ctx: AuditContext): Promise<ProjectVO> {
      const rights = await manageable(auth, input.id);
      const before = await findFullProject(db, auth.tenantId, rights.project.id);
      if (!before) throw notFound();
      const allowed: readonly string[] = PROJECT_STATUS_TRANSITIONS[before.status];
      if (!allowed.includes(input.status)) throw new AppError(409, M.badTransition);
      if (before.parentId !== null && before.status === 'archived') {
        const parent = await findFullProject(db, auth.tenantId, before.parentId);
        if (parent?.status === 'archived') throw new AppError(409, M.parentArchived);
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        await updateProject(tx, auth.tenantId, before.id, { status: input.status, updatedAt: now });
        const children =
          input.status === 'archived' && before.parentId === null
            ? await updateChildrenStatus(tx, auth.tenantId, before.id, 'archived', now)
            : [];
        await audit(
          tx,
          ctx,
          {
            action:
              input.status === 'archived'
                ? 'project.archive'
                : before.status === 'archived'
                  ? 'project.restore'
                  : 'project.status',
            entityType: 'project',
            entityId: before.id,
            oldValue: { status: before.status },
            newValue: { status: input.status, archivedSubProjects: children.map((c) => c.id) },
          },
          now,
        );
      });
      return presentManaged(
        { ...before, status: input.status },
        auth.userId,
        rights.isOwner ? BUILT_IN_ROLES.projectOwner.name : '项目成员',
      );
    },

    async searchForJoin(auth: AuthContext, keyword: string): Promise<JoinableProject[]> {
      const rows = await searchJoinable(db, auth.tenantId, auth.userId, keyword);
      return rows.map((r) => ({
        id: r.id,
        projectCode: r.code,
        projectName: r.name,
        diseaseArea: r.diseaseArea,
        status: r.status,
        ownerName: r.ownerName,
        pending: r.pendingId !== null,
      }));
    },

    async requestJoin(auth: AuthContext, input: JoinRequestCreate, ctx: AuditContext): Promise<JoinRequestVO> {
      const project = await findFullProject(db, auth.tenantId, input.projectId);
      if (!project || project.parentId !== null || project.status === 'archived') throw notFound();
      if (project.ownerId === auth.userId || (await findMembership(db, auth.tenantId, project.id, auth.userId)))
        throw new AppError(409, M.alreadyMember);
      if (await findPendingJoinRequest(db, auth.tenantId, project.id, auth.userId))
        throw new AppError(409, M.joinPending);
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const row = await insertJoinRequest(tx, {
          tenantId: auth.tenantId,
          projectId: project.id,
          userId: auth.userId,
          message: input.message ?? null,
          createdAt: now,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'join-request.create',
            entityType: 'join_request',
            entityId: row.id,
            projectId: project.id,
            newValue: { projectId: project.id, message: input.message ?? null },
          },
          now,
        );
        return row.id;
      });
      const row = await getJoinRequestRow(db, auth.tenantId, id);
      if (!row) throw new AppError(404, M.joinRequestNotFound);
      return presentJoinRequest(row);
    },

    async myJoinRequests(auth: AuthContext): Promise<JoinRequestVO[]> {
      return (await listOwnJoinRequests(db, auth.tenantId, auth.userId)).map(presentJoinRequest);
    },

    async pageJoinRequests(auth: AuthContext, input: JoinRequestPageRequest) {
      const { records, total } = await pageManageableJoinRequests(db, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        everyProject: everyProject(auth),
        ...(input.status ? { status: input.status } : {}),
        ...(input.projectId ? { projectId: input.projectId } : {}),
        current: input.current,
        size: input.size,
      });
      return { records: records.map(presentJoinRequest), total, current: input.current, size: input.size };
    },

    /** What the caller may choose when approving: grantable roles and assignable centers of the request's project. */
    async approvalOptions(auth: AuthContext, id: string): Promise<JoinRequestOptions> {
      const { request, rights } = await decidable(auth, id);
      const [roleRows, centerRows] = await Promise.all([
        listProjectRoles(db, { tenantId: auth.tenantId, rootProjectId: request.projectId }),
        listActiveCenters(db, auth.tenantId, request.projectId),
      ]);
      return {
        roles: roleRows
          .filter((role) => role.permissions.every((p) => rights.permissions.includes(p)))
          .map((role) => ({ id: role.id, name: role.name })),
        centers: centerRows.filter((center) => rights.centerId === null || center.id === rights.centerId),
        allCenters: rights.centerId === null,
      };
    },

    async approve(auth: AuthContext, input: JoinRequestApprove, ctx: AuditContext): Promise<JoinRequestVO> {
      const { request, rights } = await decidable(auth, input.id);
      const role = await findAssignableRole(db, auth.tenantId, request.projectId, input.roleId);
      if (!role) throw new AppError(404, M.roleNotFound);
      // The same rules as adding a member: no role above one's own, a center-scoped manager only to their center.
      if (!role.permissions.every((p) => rights.permissions.includes(p))) throw new AppError(403, M.roleAboveOwn);
      if (rights.centerId !== null && input.centerId !== rights.centerId) {
        throw new AppError(
          input.centerId === null ? 403 : 404,
          input.centerId === null ? ERROR_MESSAGES.forbidden : M.centerNotFound,
        );
      }
      if (input.centerId) {
        const center = await findProjectCenter(db, auth.tenantId, request.projectId, input.centerId);
        if (!center) throw new AppError(404, M.centerNotFound);
        if (center.status !== 'active') throw new AppError(409, M.centerClosed);
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const decided = await decideJoinRequest(tx, request.id, {
          status: 'approved',
          reason: null,
          roleId: role.id,
          centerId: input.centerId,
          decidedBy: auth.userId,
          decidedAt: now,
        });
        if (!decided) throw new AppError(409, M.joinRequestDecided);
        if (await findMembership(tx, auth.tenantId, request.projectId, request.userId))
          throw new AppError(409, M.userAlreadyMember);
        const member = await insertMember(tx, {
          tenantId: auth.tenantId,
          projectId: request.projectId,
          userId: request.userId,
          roleId: role.id,
          centerId: input.centerId,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'join-request.approve',
            entityType: 'join_request',
            entityId: request.id,
            projectId: request.projectId,
            oldValue: { status: 'pending' },
            newValue: { status: 'approved', memberId: member.id, roleId: role.id, centerId: input.centerId },
          },
          now,
        );
      });
      const row = await getJoinRequestRow(db, auth.tenantId, request.id);
      if (!row) throw new AppError(404, M.joinRequestNotFound);
      return presentJoinRequest(row);
    },

    async refuse(auth: AuthContext, input: JoinRequestRefuse, ctx: AuditContext): Promise<JoinRequestVO> {
      const { request } = await decidable(auth, input.id);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const decided = await decideJoinRequest(tx, request.id, {
          status: 'refused',
          reason: input.reason,
          roleId: null,
          centerId: null,
          decidedBy: auth.userId,
          decidedAt: now,
        });
        if (!decided) throw new AppError(409, M.joinRequestDecided);
        await audit(
          tx,
          ctx,
          {
            action: 'join-request.refuse',
            entityType: 'join_request',
            entityId: request.id,
            projectId: request.projectId,
            oldValue: { status: 'pending' },
            newValue: { status: 'refused', reason: input.reason },
          },
          now,
        );
      });
      const row = await getJoinRequestRow(db, auth.tenantId, request.id);
      if (!row) throw new AppError(404, M.joinRequestNotFound);
      return presentJoinRequest(row);
    },

    async organisations(auth: AuthContext, keyword?: string): Promise<OrganisationOption[]> {
      return listOrganisations(db, auth.tenantId, keyword);
    },

    async addOrganisation(auth: AuthContext, name: string, ctx: AuditContext): Promise<OrganisationOption> {
      if (await findOrganisationByName(db, auth.tenantId, name)) throw new AppError(409, M.organisationTaken);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const org = await insertOrganisation(tx, auth.tenantId, name);
        await audit(
          tx,
          ctx,
          { action: 'organisation.create', entityType: 'organisation', entityId: org.id, newValue: { name } },
          now,
        );
        return org;
      });
    },

    async tenantDoctors(auth: AuthContext): Promise<TenantDoctor[]> {
      await requireProjectScope(db, auth);
      return listTenantDoctors(db, auth.tenantId);
    },
  };
}
