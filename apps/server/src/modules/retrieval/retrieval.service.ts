import { checkCohort, type CohortForm } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import { shanghaiDate } from '@registry/shared/dates';
import type { Db } from '../../db/client';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { AppError, isUniqueViolation } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../auth/session.service';
import type {
  SavedQueryCreateRequest,
  SavedQueryUpdateRequest,
  SavedQueryVO,
} from '@registry/shared/contracts/retrieval';
import { audit, type AuditContext } from '../../plugins/audit';
import { isUuid } from '../../domain/scope/project-scope';
import { showPatientValue } from '@registry/shared/phi-mask';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { CohortCellValue, CohortRowsInput, CohortRowVO } from '@registry/shared/contracts/retrieval';
import { piiRead } from '../patient/patient-checks';
import { compileCohort } from '../../domain/cohort/cohort.repository';
import { scopeForms } from '../../domain/cohort/cohort-forms';
import { checkColumns } from './retrieval-columns';
import { RETRIEVAL_MESSAGES as M } from './retrieval.messages';
import {
  cohortPage,
  countCohort,
  insertSavedQuery,
  listSavedQueries,
  QUERY_NAME_UNIQUE,
  updateSavedQuery,
  type SavedQueryRow,
} from './retrieval.repository';

/**
 * A stored value as a result cell: numbers, texts and lists of texts as stored; anything else a form never stores
 * (an object, a boolean, a list holding non-texts) as its JSON text, so no stored value breaks the answer.
 */
export function cellValue(value: unknown): CohortCellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return JSON.stringify(value);
}

/** How long a count may run before PostgreSQL cancels it. */
export const COUNT_TIMEOUT_MS = 15_000;

/**
 * Retrieval: cohort definitions asked of the caller's patients. The scope (tenant, project, sub-project cohort,
 * center) is the session's; the fields a definition may name are those of the latest published versions of the
 * current project (a sub-project's own first, then its parent's), checked by `checkCohort` before anything runs.
 */
export function createRetrievalService(deps: { db: Db; clock: Clock; definitions: DefinitionCache }) {
  const { db, clock, definitions } = deps;

  /** The forms the caller's cohorts may name (a sub-project's form shadows its parent's of the same key). */
  async function formsOf(scope: ProjectScope): Promise<CohortForm[]> {
    return (await scopeForms(db, definitions, scope)).map((f) => f.form);
  }

  /** The definition checked against the caller's forms: 400 with every issue at its path. */
  async function checked(scope: ProjectScope, cohort: CohortDefinition) {
    return checkedWith(await formsOf(scope), cohort);
  }

  function checkedWith(forms: CohortForm[], cohort: CohortDefinition) {
    const issues = checkCohort(cohort, forms).map((i) => ({ path: `cohort.${i.path}`, message: i.message }));
    if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? M.noDefinition, issues);
    return compileCohort(cohort, forms, shanghaiDate(clock.now()));
  }

  const present = (scope: ProjectScope, r: SavedQueryRow): SavedQueryVO => ({
    id: r.id,
    name: r.name,
    description: r.description,
    shared: r.shared,
    mine: r.ownerId === scope.userId,
    ownerName: r.ownerName,
    cohort: r.definition,
    rowVersion: r.rowVersion,
    updatedAt: r.updatedAt.toISOString(),
  });

  /** A saved query the caller may see, else 404 exactly like a missing one. */
  async function visibleQuery(scope: ProjectScope, id: string): Promise<SavedQueryRow> {
    const [row] = isUuid(id) ? await listSavedQueries(db, scope, id) : [];
    if (!row) throw new AppError(404, M.queryNotFound);
    return row;
  }

  /** The caller's own saved query (another member's shared one: 403, it can be copied). */
  async function ownQuery(scope: ProjectScope, id: string): Promise<SavedQueryRow> {
    const row = await visibleQuery(scope, id);
    if (row.ownerId !== scope.userId) throw new AppError(403, M.notOwner);
    return row;
  }

  function nameTaken(name: string) {
    return (err: unknown): never => {
      if (isUniqueViolation(err, QUERY_NAME_UNIQUE))
        throw new AppError(409, M.nameTaken(name), [{ path: 'name', message: M.nameTaken(name) }]);
      throw err;
    };
  }

  const audited = (input: { name: string; description: string | null; shared: boolean; cohort: CohortDefinition }) => ({
    name: input.name,
    description: input.description,
    shared: input.shared,
    cohort: input.cohort,
  });

  /** What a saved query stores, its cohort checked against the caller's forms (400 with the issues). */
  async function checkedValues(scope: ProjectScope, input: SavedQueryCreateRequest) {
    const cohort = input.cohort as CohortDefinition;
    await checked(scope, cohort);
    const description = input.description?.trim() ? input.description.trim() : null;
    return { name: input.name, description, shared: input.shared ?? false, cohort };
  }

  return {
    async listQueries(auth: AuthContext): Promise<SavedQueryVO[]> {
      const scope = await requireProjectScope(db, auth);
      return (await listSavedQueries(db, scope)).map((r) => present(scope, r));
    },

    async getQuery(auth: AuthContext, id: string): Promise<SavedQueryVO> {
      const scope = await requireProjectScope(db, auth);
      return present(scope, await visibleQuery(scope, id));
    },

    async createQuery(auth: AuthContext, input: SavedQueryCreateRequest, ctx: AuditContext): Promise<SavedQueryVO> {
      const scope = await requireProjectScope(db, auth);
      const values = await checkedValues(scope, input);
      const { cohort } = values;
      const now = clock.now();
      const id = await db
        .transaction(async (tx) => {
          const newId = await insertSavedQuery(tx, {
            tenantId: scope.tenantId,
            projectId: scope.projectId,
            ownerId: scope.userId,
            name: values.name,
            description: values.description,
            shared: values.shared,
            definition: cohort,
            createdAt: now,
            updatedAt: now,
            updatedBy: scope.userId,
          });
          await audit(
            tx,
            ctx,
            {
              action: 'retrieval_query.create',
              entityType: 'retrieval_query',
              entityId: newId,
              newValue: audited(values),
            },
            now,
          );
          return newId;
        })
        .catch(nameTaken(values.name));
      return present(scope, await visibleQuery(scope, id));
    },

    async updateQuery(auth: AuthContext, input: SavedQueryUpdateRequest, ctx: AuditContext): Promise<SavedQueryVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await ownQuery(scope, input.id);
      if (before.rowVersion !== input.rowVersion) throw new AppError(409, M.stale);
      const values = await checkedValues(scope, input);
      const { cohort } = values;
      const now = clock.now();
      await db
        .transaction(async (tx) => {
          const done = await updateSavedQuery(tx, scope, before.id, input.rowVersion, {
            name: values.name,
            description: values.description,
            shared: values.shared,
            definition: cohort,
            updatedAt: now,
            updatedBy: scope.userId,
          });
          if (!done) throw new AppError(409, M.stale);
          await audit(
            tx,
            ctx,
            {
              action: 'retrieval_query.update',
              entityType: 'retrieval_query',
              entityId: before.id,
              oldValue: audited({ ...before, cohort: before.definition }),
              newValue: audited(values),
            },
            now,
          );
        })
        .catch(nameTaken(values.name));
      return present(scope, await visibleQuery(scope, before.id));
    },

    async deleteQuery(auth: AuthContext, id: string, ctx: AuditContext): Promise<void> {
      const scope = await requireProjectScope(db, auth);
      const before = await ownQuery(scope, id);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const done = await updateSavedQuery(tx, scope, before.id, before.rowVersion, {
          deletedAt: now,
          updatedAt: now,
        });
        if (!done) throw new AppError(409, M.stale);
        await audit(
          tx,
          ctx,
          {
            action: 'retrieval_query.delete',
            entityType: 'retrieval_query',
            entityId: before.id,
            oldValue: audited({ ...before, cohort: before.definition }),
          },
          now,
        );
      });
    },

    /**
     * A page of the cohort's patients with the chosen CRF columns (checked against the same forms as the cohort):
     * identity masked and PHI columns withheld (never read) without `patient.pii`; with it, the read is audited
     * (`patient.pii_read`, the page's patient ids) in the transaction that read them.
     */
    async rows(auth: AuthContext, input: CohortRowsInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const forms = await formsOf(scope);
      const predicate = checkedWith(forms, input.cohort as CohortDefinition);
      const pii = scope.permissions.includes(PERMISSIONS.patientPii);
      const { columns, sort } = checkColumns(forms, input.columns, input.sort, pii);
      const { current, size } = input;
      const withheld = columns.filter((c) => c.phi && !pii).map((c) => c.key);
      const now = clock.now();
      const result = await cohortPage(
        db,
        scope,
        predicate,
        {
          offset: (current - 1) * size,
          limit: size,
          sort,
          order: input.order,
          columns: columns.filter((c) => !withheld.includes(c.key)),
        },
        COUNT_TIMEOUT_MS,
        async (tx, ids) => {
          if (pii && ids.length > 0) await piiRead(tx, ctx, ids, null, now);
        },
      );
      if (result === 'timedOut') throw new AppError(400, M.timeout(COUNT_TIMEOUT_MS / 1000));
      const records: CohortRowVO[] = result.rows.map((r) => ({
        id: r.id,
        patientNo: r.patientNo,
        name: showPatientValue('name', r.name, pii),
        gender: r.gender,
        centerName: r.centerName,
        enrolDate: r.enrolDate,
        status: r.status,
        masked: !pii,
        values: Object.fromEntries(columns.map((c) => [c.key, cellValue(r.values[c.key])])),
        withheld,
      }));
      return { records, total: result.total, current, size };
    },

    async count(auth: AuthContext, cohort: CohortDefinition) {
      const scope = await requireProjectScope(db, auth);
      const predicate = await checked(scope, cohort);
      const result = await countCohort(db, scope, predicate, COUNT_TIMEOUT_MS);
      if (result === 'timedOut') throw new AppError(400, M.timeout(COUNT_TIMEOUT_MS / 1000));
      return result;
    },
  };
}

export type RetrievalService = ReturnType<typeof createRetrievalService>;
