import { cohortFormOf, type CohortForm } from '@registry/shared/cohort/check';
import type { FormDefinition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import type { DefinitionCache } from '../crf/definition-cache';
import type { ProjectScope } from '../scope/project-scope';
import { latestVersionIds } from '../crf/crf-definition.repository';

/**
 * A form of the scope's published definitions: as the cohort sees it (`form`), as it was published (`definition`: an
 * export needs its fields whole) and the version it comes from.
 */
export type ScopedForm = { form: CohortForm; definition: FormDefinition; versionId: string };

/**
 * The forms a cohort of the scope may name and an export may write: those of the latest published versions of the
 * current project and, for a sub-project, its parent (a sub-project's form shadows its parent's of the same key).
 */
export async function scopeForms(
  db: Executor,
  definitions: DefinitionCache,
  scope: Pick<ProjectScope, 'tenantId' | 'projectId' | 'rootProjectId'>,
): Promise<ScopedForm[]> {
  const projectIds = [...new Set([scope.projectId, scope.rootProjectId])];
  const ids = await latestVersionIds(db, scope.tenantId, projectIds);
  const versions = await definitions.load(db, scope.tenantId, ids);
  const seen = new Set<string>();
  const forms: ScopedForm[] = [];
  for (const id of ids) {
    const definition = versions.get(id)?.definition;
    if (!definition) continue;
    for (const form of definition.categories.flatMap((c) => c.forms))
      if (!seen.has(form.key)) {
        seen.add(form.key);
        forms.push({ form: cohortFormOf(form), definition: form, versionId: id });
      }
  }
  return forms;
}
