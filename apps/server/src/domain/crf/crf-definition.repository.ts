import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { EMPTY_DEFINITION, type Definition } from '@registry/shared/forms/definition';
import type { DefinitionChange } from '@registry/shared/contracts/form-definition';
import { runPrepared, type Executor } from '../../db/client';
import { fieldDictOptions, fieldDicts, formDrafts, formVersions, projects, users } from '../../db/schema';
import type { ProjectScope } from '../scope/project-scope';

/*
 * The published CRF definitions as several modules read them (the designer, import/export, patients, records,
 * follow-up): versions, the draft, the project's name, the dictionary codes and options a definition may use.
 */
/** The scope a definition call works on: the session's tenant and current project (see `requireProjectScope`). */
export type DefinitionScope = Pick<ProjectScope, 'tenantId' | 'projectId'>;

export type DraftRow = {
  projectId: string;
  definition: Definition;
  revision: number;
  updatedAt: Date;
  updatedByName: string | null;
};

export type VersionRow = {
  id: string;
  projectId: string;
  versionNo: number;
  definition: Definition;
  changes: DefinitionChange[];
  note: string | null;
  publishedAt: Date;
  publishedBy: string;
  publishedByName: string;
};

const versionColumns = {
  id: formVersions.id,
  projectId: formVersions.projectId,
  versionNo: formVersions.versionNo,
  definition: formVersions.definition,
  changes: formVersions.changes,
  note: formVersions.note,
  publishedAt: formVersions.publishedAt,
  publishedBy: formVersions.publishedBy,
  publishedByName: users.name,
};

type RawVersion = { definition: unknown; changes: unknown } & Omit<VersionRow, 'definition' | 'changes'>;
// The documents were checked against the definition schema when they were written (save / publish).
const asVersion = (row: RawVersion): VersionRow => ({
  ...row,
  definition: row.definition as Definition,
  changes: row.changes as DefinitionChange[],
});

/** The project's versions (newest first), or only the latest with `limit: 1`. */
export async function listVersions(db: Executor, scope: DefinitionScope, limit?: number): Promise<VersionRow[]> {
  const q = db
    .select(versionColumns)
    .from(formVersions)
    .innerJoin(users, eq(users.id, formVersions.publishedBy))
    .where(and(eq(formVersions.tenantId, scope.tenantId), eq(formVersions.projectId, scope.projectId)))
    .orderBy(desc(formVersions.versionNo));
  return (limit ? await q.limit(limit) : await q).map(asVersion);
}

/** The latest published version of a project of the tenant, or undefined before its first publish. */
export async function latestVersion(db: Executor, scope: DefinitionScope): Promise<VersionRow | undefined> {
  return (await listVersions(db, scope, 1))[0];
}

/**
 * One version by id, of the scope's project or (with `orParentOf`, for a sub-project) of its parent; undefined when
 * it is not one of those (another tenant's or project's id answers exactly like a missing one).
 */
export async function loadVersion(
  db: Executor,
  scope: DefinitionScope,
  versionId: string,
  opts: { parentId?: string | null } = {},
): Promise<VersionRow | undefined> {
  const projectIds = opts.parentId ? [scope.projectId, opts.parentId] : [scope.projectId];
  const [row] = await db
    .select(versionColumns)
    .from(formVersions)
    .innerJoin(users, eq(users.id, formVersions.publishedBy))
    .where(
      and(
        eq(formVersions.tenantId, scope.tenantId),
        inArray(formVersions.projectId, projectIds),
        eq(formVersions.id, versionId),
      ),
    )
    .limit(1);
  return row ? asVersion(row) : undefined;
}

/**
 * The project's draft; created on first read from its latest version (or the empty definition), revision 0.
 * With `forUpdate` (inside a transaction) the row stays locked until the transaction ends.
 */
export async function loadDraft(
  db: Executor,
  scope: DefinitionScope,
  opts: { forUpdate?: boolean } = {},
): Promise<DraftRow> {
  const read = async () => {
    const q = db
      .select({
        projectId: formDrafts.projectId,
        definition: formDrafts.definition,
        revision: formDrafts.revision,
        updatedAt: formDrafts.updatedAt,
        updatedByName: users.name,
      })
      .from(formDrafts)
      .leftJoin(users, eq(users.id, formDrafts.updatedBy))
      .where(and(eq(formDrafts.tenantId, scope.tenantId), eq(formDrafts.projectId, scope.projectId)))
      .limit(1);
    const [row] = opts.forUpdate ? await q.for('update', { of: formDrafts }) : await q;
    return row ? { ...row, definition: row.definition as Definition } : undefined;
  };
  const found = await read();
  if (found) return found;
  const latest = await latestVersion(db, scope);
  await db
    .insert(formDrafts)
    .values({
      tenantId: scope.tenantId,
      projectId: scope.projectId,
      definition: latest?.definition ?? EMPTY_DEFINITION,
      revision: 0,
    })
    .onConflictDoNothing();
  const created = await read();
  if (!created) throw new Error('form draft could not be created');
  return created;
}

/** The project's name and parent (null for a top-level project). */
export async function projectInfo(
  db: Executor,
  scope: DefinitionScope,
): Promise<{ name: string; status: string; parentId: string | null; parentName: string | null }> {
  const [row] = await db
    .select({ name: projects.name, status: projects.status, parentId: projects.parentId })
    .from(projects)
    .where(and(eq(projects.tenantId, scope.tenantId), eq(projects.id, scope.projectId)))
    .limit(1);
  if (!row) throw new Error('project of the scope missing');
  if (!row.parentId) return { name: row.name, status: row.status, parentId: null, parentName: null };
  const [parent] = await db
    .select({ name: projects.name })
    .from(projects)
    .where(and(eq(projects.tenantId, scope.tenantId), eq(projects.id, row.parentId)))
    .limit(1);
  return { name: row.name, status: row.status, parentId: row.parentId, parentName: parent?.name ?? null };
}

/** The dictionary codes a tenant may use: its own lists and the built-in ones. */
export async function availableDictCodes(db: Executor, tenantId: string): Promise<Set<string>> {
  const rows = await db
    .select({ code: fieldDicts.code })
    .from(fieldDicts)
    .where(or(eq(fieldDicts.tenantId, tenantId), isNull(fieldDicts.tenantId)));
  return new Set(rows.map((r) => r.code));
}

/**
 * Which of the given (dictionary code, option code) pairs exist as enabled options of a list the tenant may use, in
 * one query. Returns the pairs found as `dict\u0000code`.
 */
export async function existingDictOptions(
  db: Executor,
  tenantId: string,
  pairs: readonly { dictCode: string; code: string }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const dictCodes = [...new Set(pairs.map((p) => p.dictCode))];
  const codes = [...new Set(pairs.map((p) => p.code))];
  const rows = await db
    .select({ dictCode: fieldDicts.code, code: fieldDictOptions.code })
    .from(fieldDictOptions)
    .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
    .where(
      and(
        or(eq(fieldDicts.tenantId, tenantId), isNull(fieldDicts.tenantId)),
        inArray(fieldDicts.code, dictCodes),
        inArray(fieldDictOptions.code, codes),
        eq(fieldDictOptions.enabled, true),
      ),
    );
  return new Set(rows.map((r) => dictOptionKey(r.dictCode, r.code)));
}

export const dictOptionKey = (dictCode: string, code: string): string => `${dictCode}\u0000${code}`;

/** The ids of the latest published versions of these projects of the tenant, in the order of `projectIds`. */
export async function latestVersionIds(db: Executor, tenantId: string, projectIds: string[]): Promise<string[]> {
  const rows = await runPrepared(
    db
      .selectDistinctOn([formVersions.projectId], { id: formVersions.id, projectId: formVersions.projectId })
      .from(formVersions)
      .where(and(eq(formVersions.tenantId, tenantId), inArray(formVersions.projectId, projectIds)))
      .orderBy(formVersions.projectId, desc(formVersions.versionNo)),
  );
  return projectIds.flatMap((p) => rows.filter((r) => r.projectId === p).map((r) => r.id));
}

/** The published versions of the tenant with these ids (the definition cache's read). */
export async function findVersionsByIds(db: Executor, tenantId: string, ids: string[]) {
  return db
    .select({
      id: formVersions.id,
      tenantId: formVersions.tenantId,
      projectId: formVersions.projectId,
      versionNo: formVersions.versionNo,
      definition: formVersions.definition,
    })
    .from(formVersions)
    .where(and(eq(formVersions.tenantId, tenantId), inArray(formVersions.id, ids)));
}
