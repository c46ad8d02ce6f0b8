import type { Db } from '../../db/client';
import { latestVersion } from '../../domain/crf/crf-definition.repository';
import type { ProjectScope } from '../../domain/scope/project-scope';
import { AppError } from '../../lib/errors';
import { demographicColumns, fieldColumns } from './import-columns';
import { M, type Sources } from './import-plan';
import { dictionaryOptions } from './patient-import.repository';

/** The published definitions the import works on: a sub-project's parent's forms, then its own. */
export async function sourcesOf(db: Db, scope: ProjectScope): Promise<Sources> {
  const own = await latestVersion(db, { tenantId: scope.tenantId, projectId: scope.projectId });
  const parent =
    scope.rootProjectId !== scope.projectId
      ? await latestVersion(db, { tenantId: scope.tenantId, projectId: scope.rootProjectId })
      : undefined;
  const primary = own ?? parent;
  if (!primary) throw new AppError(409, M.noVersion);
  const versions = [parent, own].flatMap((v) => (v ? [v] : []));
  const fields = fieldColumns(versions.map((v) => ({ definition: v.definition, versionId: v.id })));
  const missingOf = new Map<string, string[]>();
  for (const v of versions)
    for (const category of v.definition.categories)
      for (const form of category.forms)
        missingOf.set(
          form.key,
          v.definition.missingCodes.map((m) => m.code),
        );
  return {
    columns: [...demographicColumns(), ...fields],
    fields,
    versionId: primary.id,
    versionNo: primary.versionNo,
    missingCodes: primary.definition.missingCodes,
    missingOf,
  };
}

/** The options of every dictionary a column of the import uses. */
export async function dictOptionsOf(db: Db, scope: ProjectScope, sources: Sources) {
  const codes = [
    ...new Set(sources.fields.flatMap((c) => (c.field.type === 'dict' && c.field.dictCode ? [c.field.dictCode] : []))),
  ];
  return dictionaryOptions(db, scope.tenantId, codes);
}
