import { cohortForms, checkCohort, type CohortForm } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import { shanghaiDate } from '@registry/shared/dates';
import type { Db } from '../../db/client';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../auth/session.service';
import { compileCohort } from './cohort.repository';
import { RETRIEVAL_MESSAGES as M } from './retrieval.messages';
import { countCohort, latestVersionIds } from './retrieval.repository';

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
    const projectIds = [...new Set([scope.projectId, scope.rootProjectId])];
    const ids = await latestVersionIds(db, scope.tenantId, projectIds);
    const versions = await definitions.load(db, scope.tenantId, ids);
    const seen = new Set<string>();
    const forms: CohortForm[] = [];
    for (const id of ids)
      for (const form of cohortForms(versions.get(id)?.definition ?? { categories: [] }))
        if (!seen.has(form.key)) {
          seen.add(form.key);
          forms.push(form);
        }
    return forms;
  }

  /** The definition checked against the caller's forms: 400 with every issue at its path. */
  async function checked(scope: ProjectScope, cohort: CohortDefinition) {
    const forms = await formsOf(scope);
    const issues = checkCohort(cohort, forms).map((i) => ({ path: `cohort.${i.path}`, message: i.message }));
    if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? M.noDefinition, issues);
    return compileCohort(cohort, forms, shanghaiDate(clock.now()));
  }

  return {
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
