import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Definition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import { formDrafts, formRecords, formVersions, projects } from '../../db/schema';
import { latestVersion, type DefinitionScope, type VersionRow } from '../../domain/crf/crf-definition.repository';

export async function insertVersion(db: Executor, values: typeof formVersions.$inferInsert): Promise<string> {
  const [row] = await db.insert(formVersions).values(values).returning({ id: formVersions.id });
  if (!row) throw new Error('form version insert returned no row');
  return row.id;
}

/**
 * Replaces the draft when its revision is still `expected` and bumps the revision; returns the new revision, or
 * undefined when someone else saved in between (0 rows).
 */
export async function updateDraft(
  db: Executor,
  scope: DefinitionScope,
  expected: number,
  values: { definition: Definition; updatedBy: string; updatedAt: Date },
): Promise<number | undefined> {
  const [row] = await db
    .update(formDrafts)
    .set({ ...values, revision: sql`${formDrafts.revision} + 1` })
    .where(
      and(
        eq(formDrafts.tenantId, scope.tenantId),
        eq(formDrafts.projectId, scope.projectId),
        eq(formDrafts.revision, expected),
      ),
    )
    .returning({ revision: formDrafts.revision });
  return row?.revision;
}

/** The latest published version of each sub-project of a project (sub-projects without one left out). */
export async function childLatestVersions(
  db: Executor,
  scope: DefinitionScope,
): Promise<{ projectName: string; version: VersionRow }[]> {
  const children = await db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.tenantId, scope.tenantId), eq(projects.parentId, scope.projectId)))
    .orderBy(projects.code);
  const out: { projectName: string; version: VersionRow }[] = [];
  for (const child of children) {
    const version = await latestVersion(db, { tenantId: scope.tenantId, projectId: child.id });
    if (version) out.push({ projectName: child.name, version });
  }
  return out;
}

/** What a breaking change could orphan: the records of a form, optionally only those holding a field or a code. */
export type DataProbe = {
  formKey: string;
  /** A form's own field, or `group.column` for a repeating group's column; absent = any data of the form. */
  fieldKey?: string;
  /** Only records whose value of the field is (or, for a checkbox, contains) one of these option codes. */
  codes?: readonly string[];
};

/**
 * The number of records of the project (and of its sub-projects, which enter data on the parent's forms) that hold
 * data a change would orphan.
 */
export async function countRecordsWithData(db: Executor, scope: DefinitionScope, probe: DataProbe): Promise<number> {
  const conditions: SQL[] = [
    eq(formRecords.tenantId, scope.tenantId),
    inArray(
      formRecords.projectId,
      db
        .select({ id: projects.id })
        .from(projects)
        .where(
          and(
            eq(projects.tenantId, scope.tenantId),
            or(eq(projects.id, scope.projectId), eq(projects.parentId, scope.projectId)),
          ),
        ),
    ),
    eq(formRecords.formKey, probe.formKey),
  ];
  const [group, column] = probe.fieldKey?.includes('.') ? probe.fieldKey.split('.', 2) : [undefined, undefined];
  if (group !== undefined && column !== undefined) {
    // rows of the group holding a non-blank value of the column (or one of the codes)
    const value = sql`r.value -> ${column}`;
    const match = probe.codes
      ? sql`(${value} ?| ${codesArray(probe.codes)} or (${value}) #>> '{}' = any(${codesArray(probe.codes)}))`
      : sql`(${value}) is not null and ${value} not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;
    conditions.push(
      sql`jsonb_typeof(${formRecords.data} -> ${group}) = 'array' and exists (
        select 1 from jsonb_array_elements(${formRecords.data} -> ${group}) r where jsonb_typeof(r.value) = 'object' and ${match})`,
    );
  } else if (probe.fieldKey !== undefined) {
    const value = sql`${formRecords.data} -> ${probe.fieldKey}`;
    conditions.push(
      probe.codes
        ? sql`(${value} ?| ${codesArray(probe.codes)} or (${value}) #>> '{}' = any(${codesArray(probe.codes)}))`
        : sql`${formRecords.data} ? ${probe.fieldKey} and ${value} not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`,
    );
  } else {
    conditions.push(sql`${formRecords.data} <> '{}'::jsonb`);
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(formRecords)
    .where(and(...conditions));
  return row?.n ?? 0;
}

const codesArray = (codes: readonly string[]) =>
  sql`array[${sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  )}]::text[]`;
