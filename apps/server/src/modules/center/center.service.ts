import type { CenterCreateRequest, CenterUpdateRequest, CenterVO } from '@registry/shared/contracts/center';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError, ERROR_MESSAGES, isUniqueViolation } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { MANAGE_MESSAGES as M } from '../../domain/messages/project-messages';
import { isUuid, requireProjectScope, spansAllCenters, type ProjectScope } from '../../domain/scope/project-scope';
import {
  findCenterByCode,
  findOrganisationInTenant,
  insertCenterRow,
  isProjectMember,
  listCenters,
  updateCenterRow,
  type CenterRow,
  CENTER_CODE_UNIQUE,
} from './center.repository';
import { presentCenter } from './center.presenter';

const auditValues = (c: CenterRow) => ({
  code: c.code,
  name: c.name,
  organisationId: c.organisationId,
  leadUserId: c.leadUserId,
  status: c.status,
});

export type CenterService = ReturnType<typeof createCenterService>;

export function createCenterService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** A code taken by a concurrent request after `findCenterByCode` (the database's index refuses it): the same 409. */
  function codeTakenMeanwhile(err: unknown): never {
    if (isUniqueViolation(err, CENTER_CODE_UNIQUE)) throw new AppError(409, M.centerCodeTaken);
    throw err;
  }

  /** A center the scope may see, else 404 exactly like a missing one. */
  async function visibleCenter(scope: ProjectScope, id: string): Promise<CenterRow> {
    const [row] = isUuid(id) ? await listCenters(db, scope, { id }) : [];
    if (!row) throw new AppError(404, M.centerNotFound);
    return row;
  }

  async function reload(scope: ProjectScope, id: string): Promise<CenterVO> {
    return presentCenter(await visibleCenter(scope, id));
  }

  function requireAllCenters(scope: ProjectScope) {
    if (!spansAllCenters(scope)) throw new AppError(403, ERROR_MESSAGES.forbidden);
  }

  async function checkOrganisation(scope: ProjectScope, organisationId: string) {
    if (!(await findOrganisationInTenant(db, scope.tenantId, organisationId)))
      throw new AppError(404, M.organisationNotFound);
  }

  async function checkLead(scope: ProjectScope, leadUserId: string | null | undefined) {
    if (leadUserId && !(await isProjectMember(db, scope, leadUserId))) throw new AppError(400, M.leadNotMember);
  }

  return {
    async list(auth: AuthContext, status?: 'active' | 'closed'): Promise<CenterVO[]> {
      const scope = await requireProjectScope(db, auth);
      return (await listCenters(db, scope, status ? { status } : {})).map(presentCenter);
    },

    async create(auth: AuthContext, input: CenterCreateRequest, ctx: AuditContext): Promise<CenterVO> {
      const scope = await requireProjectScope(db, auth);
      requireAllCenters(scope);
      await checkOrganisation(scope, input.organisationId);
      await checkLead(scope, input.leadUserId);
      if (await findCenterByCode(db, scope, input.code)) throw new AppError(409, M.centerCodeTaken);
      const now = clock.now();
      const id = await db
        .transaction(async (tx) => {
          const row = await insertCenterRow(tx, {
            tenantId: scope.tenantId,
            projectId: scope.rootProjectId,
            organisationId: input.organisationId,
            code: input.code,
            name: input.name,
            leadUserId: input.leadUserId ?? null,
            createdAt: now,
            updatedAt: now,
          });
          await audit(
            tx,
            ctx,
            {
              action: 'center.create',
              entityType: 'center',
              entityId: row.id,
              newValue: { projectId: scope.rootProjectId, ...input, leadUserId: input.leadUserId ?? null },
            },
            now,
          );
          return row.id;
        })
        .catch(codeTakenMeanwhile);
      return reload(scope, id);
    },

    async update(auth: AuthContext, input: CenterUpdateRequest, ctx: AuditContext): Promise<CenterVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await visibleCenter(scope, input.id);
      const set: { code?: string; name?: string; organisationId?: string; leadUserId?: string | null } = {};
      if (input.code !== undefined && input.code !== before.code) {
        const taken = await findCenterByCode(db, scope, input.code);
        if (taken && taken.id !== before.id) throw new AppError(409, M.centerCodeTaken);
        set.code = input.code;
      }
      if (input.name !== undefined && input.name !== before.name) set.name = input.name;
      if (input.organisationId !== undefined && input.organisationId !== before.organisationId) {
        await checkOrganisation(scope, input.organisationId);
        set.organisationId = input.organisationId;
      }
      if (input.leadUserId !== undefined && input.leadUserId !== before.leadUserId) {
        await checkLead(scope, input.leadUserId);
        set.leadUserId = input.leadUserId;
      }
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db
          .transaction(async (tx) => {
            await updateCenterRow(tx, scope, before.id, { ...set, updatedAt: now });
            const oldValue: Record<string, unknown> = {};
            const old = auditValues(before);
            for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = old[k];
            await audit(
              tx,
              ctx,
              { action: 'center.update', entityType: 'center', entityId: before.id, oldValue, newValue: set },
              now,
            );
          })
          .catch(codeTakenMeanwhile);
      }
      return reload(scope, before.id);
    },

    async setStatus(auth: AuthContext, id: string, status: 'active' | 'closed', ctx: AuditContext): Promise<CenterVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await visibleCenter(scope, id);
      requireAllCenters(scope);
      if (status === 'closed' && before.isDefault) throw new AppError(409, M.defaultCenterClose);
      if (before.status !== status) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          await updateCenterRow(tx, scope, before.id, { status, updatedAt: now });
          await audit(
            tx,
            ctx,
            {
              action: status === 'closed' ? 'center.close' : 'center.reopen',
              entityType: 'center',
              entityId: before.id,
              oldValue: { status: before.status },
              newValue: { status },
            },
            now,
          );
        });
      }
      return reload(scope, before.id);
    },
  };
}
