import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { centers, fieldDictOptions, fieldDicts, formRecords, importBatches } from '../../db/schema';
import type { ProjectScope } from '../../domain/scope/project-scope';

/** Every center of the project (open or closed): the import names centers by code. */
export async function projectCenters(db: Executor, scope: ProjectScope) {
  return db
    .select({ id: centers.id, code: centers.code, name: centers.name, status: centers.status })
    .from(centers)
    .where(and(eq(centers.tenantId, scope.tenantId), eq(centers.projectId, scope.rootProjectId)))
    .orderBy(centers.code);
}

/** The first live instance of the given forms of the given patients (what an import row fills). */
export async function firstRecords(
  db: Executor,
  tenantId: string,
  patientIds: readonly string[],
  formKeys: readonly string[],
) {
  if (patientIds.length === 0 || formKeys.length === 0) return [];
  const rows = await db
    .select({
      id: formRecords.id,
      patientId: formRecords.patientId,
      formKey: formRecords.formKey,
      instance: formRecords.instance,
      status: formRecords.status,
      rowVersion: formRecords.rowVersion,
      data: formRecords.data,
    })
    .from(formRecords)
    .where(
      and(
        eq(formRecords.tenantId, tenantId),
        inArray(formRecords.patientId, [...patientIds]),
        inArray(formRecords.formKey, [...formKeys]),
        eq(formRecords.instance, 1),
        isNull(formRecords.deletedAt),
      ),
    );
  // `data` is always a JSON object: only the record writer stores it.
  return rows.map((r) => ({ ...r, data: r.data as Record<string, unknown> }));
}

/** The enabled options of the dictionaries the tenant may use (its own and the built-in ones), by dictionary code. */
export async function dictionaryOptions(db: Executor, tenantId: string, dictCodes: readonly string[]) {
  const out = new Map<string, { code: string; label: string }[]>();
  if (dictCodes.length === 0) return out;
  const rows = await db
    .select({ dictCode: fieldDicts.code, code: fieldDictOptions.code, label: fieldDictOptions.label })
    .from(fieldDictOptions)
    .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
    .where(
      and(
        or(eq(fieldDicts.tenantId, tenantId), isNull(fieldDicts.tenantId)),
        inArray(fieldDicts.code, [...dictCodes]),
        eq(fieldDictOptions.enabled, true),
      ),
    )
    .orderBy(fieldDicts.code, fieldDictOptions.sort, fieldDictOptions.code);
  for (const row of rows) {
    const list = out.get(row.dictCode) ?? [];
    list.push({ code: row.code, label: row.label });
    out.set(row.dictCode, list);
  }
  return out;
}

export async function insertImportBatch(tx: Executor, values: typeof importBatches.$inferInsert) {
  const [row] = await tx.insert(importBatches).values(values).returning({ id: importBatches.id });
  if (!row) throw new Error('import batch insert returned no row');
  return row;
}
