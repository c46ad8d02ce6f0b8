import type {
  MemberAccountRequest,
  MemberAccountResponse,
  MemberAddRequest,
  MemberPageRequest,
  MemberUpdateRequest,
  MemberVO,
} from '@registry/shared/contracts/member';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import { findTenantUser } from '../../domain/users/users.repository';
import { checkAccountFree, createAccount } from '../../domain/users/new-account';
import type { AuthContext } from '../auth/session.service';
import {
  findAssignableRole,
  findMembership,
  findProjectCenter,
  homeOrganisationOf,
  insertMember,
} from '../../domain/membership/membership.repository';
import { MANAGE_MESSAGES as M } from '../../domain/messages/project-messages';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import {
  countOwners,
  deleteMember,
  findScopedMember,
  lockProjectMembers,
  OWNER_ROLE_CODE,
  pageMembers,
  updateMember,
  type MemberRow,
} from './member.repository';
import { presentMember } from './member.presenter';

export type MemberService = ReturnType<typeof createMemberService>;

export function createMemberService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** A role of the project that the manager may grant: never one holding a permission the manager lacks. */
  async function role(scope: ProjectScope, roleId: string) {
    const row = await findAssignableRole(db, scope.tenantId, scope.rootProjectId, roleId);
    if (!row) throw new AppError(404, M.roleNotFound);
    if (!row.permissions.every((p) => scope.permissions.includes(p))) throw new AppError(403, M.roleAboveOwn);
    return row;
  }

  /** A center the manager may assign: any open center of the project, or only their own when center-scoped. */
  async function assignableCenter(scope: ProjectScope, centerId: string | null) {
    if (centerId === null) {
      if (scope.centerId !== null) throw new AppError(403, ERROR_MESSAGES.forbidden);
      return null;
    }
    if (scope.centerId !== null && scope.centerId !== centerId) throw new AppError(404, M.centerNotFound);
    const center = await findProjectCenter(db, scope.tenantId, scope.rootProjectId, centerId);
    if (!center) throw new AppError(404, M.centerNotFound);
    if (center.status !== 'active') throw new AppError(409, M.centerClosed);
    return center;
  }

  async function member(scope: ProjectScope, id: string): Promise<MemberRow> {
    const row = isUuid(id) ? await findScopedMember(db, scope, id) : undefined;
    if (!row) throw new AppError(404, M.memberNotFound);
    return row;
  }

  async function reload(scope: ProjectScope, id: string): Promise<MemberVO> {
    return presentMember(await member({ ...scope, centerId: null }, id));
  }

  async function addMembership(
    tx: Executor,
    scope: ProjectScope,
    input: { userId: string; roleId: string; centerId: string | null },
    ctx: AuditContext,
    extra: Record<string, unknown> = {},
  ) {
    if (await findMembership(tx, scope.tenantId, scope.rootProjectId, input.userId))
      throw new AppError(409, M.userAlreadyMember);
    const row = await insertMember(tx, {
      tenantId: scope.tenantId,
      projectId: scope.rootProjectId,
      userId: input.userId,
      roleId: input.roleId,
      centerId: input.centerId,
    });
    await audit(
      tx,
      ctx,
      {
        action: 'member.add',
        entityType: 'project_member',
        entityId: row.id,
        newValue: { projectId: scope.rootProjectId, ...input, ...extra },
      },
      clock.now(),
    );
    return row.id;
  }

  return {
    async page(auth: AuthContext, input: MemberPageRequest) {
      const scope = await requireProjectScope(db, auth);
      const { records, total } = await pageMembers(db, scope, {
        ...(input.keyword ? { keyword: input.keyword } : {}),
        ...(input.roleId ? { roleId: input.roleId } : {}),
        ...(input.centerId ? { centerId: input.centerId } : {}),
        current: input.current,
        size: input.size,
      });
      return { records: records.map(presentMember), total, current: input.current, size: input.size };
    },

    async add(auth: AuthContext, input: MemberAddRequest, ctx: AuditContext): Promise<MemberVO> {
      const scope = await requireProjectScope(db, auth);
      const user = await findTenantUser(db, scope.tenantId, input.userId);
      if (!user || user.disabled) throw new AppError(404, ERROR_MESSAGES.userNotFound);
      await role(scope, input.roleId);
      await assignableCenter(scope, input.centerId);
      const id = await db.transaction((tx) => addMembership(tx, scope, input, ctx));
      return reload(scope, id);
    },

    async createAccount(
      auth: AuthContext,
      input: MemberAccountRequest,
      ctx: AuditContext,
    ): Promise<MemberAccountResponse> {
      const scope = await requireProjectScope(db, auth);
      await role(scope, input.roleId);
      const center = await assignableCenter(scope, input.centerId);
      await checkAccountFree(db, input);
      const organisationId =
        center?.organisationId ?? (await homeOrganisationOf(db, scope.tenantId, auth.userId))?.id ?? null;
      const now = clock.now();
      const { id, initialPassword } = await db.transaction(async (tx) => {
        const created = await createAccount(tx, {
          ...input,
          tenantId: scope.tenantId,
          organisationId,
          at: now,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'user.create',
            entityType: 'user',
            entityId: created.user.id,
            newValue: {
              username: created.user.username,
              name: created.user.name,
              phone: input.phone ?? null,
              departmentName: input.departmentName ?? null,
              initPwd: true,
            },
          },
          now,
        );
        const memberId = await addMembership(
          tx,
          scope,
          { userId: created.user.id, roleId: input.roleId, centerId: input.centerId },
          ctx,
        );
        return { id: memberId, initialPassword: created.initialPassword };
      });
      return { member: await reload(scope, id), initialPassword };
    },

    async update(auth: AuthContext, input: MemberUpdateRequest, ctx: AuditContext): Promise<MemberVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await member(scope, input.id);
      const set: { roleId?: string; centerId?: string | null } = {};
      let newRoleCode = before.roleCode;
      if (input.roleId !== undefined && input.roleId !== before.roleId) {
        newRoleCode = (await role(scope, input.roleId)).code;
        set.roleId = input.roleId;
      }
      if (input.centerId !== undefined && input.centerId !== before.centerId) {
        await assignableCenter(scope, input.centerId);
        set.centerId = input.centerId;
      }
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          await lockProjectMembers(tx, scope);
          if (before.roleCode === OWNER_ROLE_CODE && newRoleCode !== OWNER_ROLE_CODE) {
            if ((await countOwners(tx, scope)) <= 1) throw new AppError(409, M.lastOwner);
          }
          await updateMember(tx, scope, before.id, set);
          const oldValue: Record<string, unknown> = {};
          for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = before[k];
          await audit(
            tx,
            ctx,
            {
              action: 'member.update',
              entityType: 'project_member',
              entityId: before.id,
              oldValue: { userId: before.userId, ...oldValue },
              newValue: { userId: before.userId, ...set },
            },
            now,
          );
        });
      }
      return reload(scope, before.id);
    },

    async remove(auth: AuthContext, id: string, ctx: AuditContext): Promise<null> {
      const scope = await requireProjectScope(db, auth);
      const before = await member(scope, id);
      const now = clock.now();
      await db.transaction(async (tx) => {
        await lockProjectMembers(tx, scope);
        if (before.roleCode === OWNER_ROLE_CODE && (await countOwners(tx, scope)) <= 1)
          throw new AppError(409, M.lastOwner);
        await deleteMember(tx, scope, before.id);
        await audit(
          tx,
          ctx,
          {
            action: 'member.remove',
            entityType: 'project_member',
            entityId: before.id,
            oldValue: { userId: before.userId, roleId: before.roleId, centerId: before.centerId },
          },
          now,
        );
      });
      return null;
    },
  };
}
