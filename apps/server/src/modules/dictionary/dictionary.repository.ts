import { and, asc, count, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { mayBePinyin } from '../../lib/pinyin';
import { areas, fieldDictOptions, fieldDicts, formDrafts, formVersions } from '../../db/schema';
import { pageTotal } from '../../lib/page-total';

/** `%` and `_` of a keyword match themselves in ILIKE (the escape character is `\`). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The lists a tenant sees: the built-in ones and its own. */
const visibleTo = (tenantId: string) => or(isNull(fieldDicts.tenantId), eq(fieldDicts.tenantId, tenantId));

const dictColumns = {
  id: fieldDicts.id,
  tenantId: fieldDicts.tenantId,
  code: fieldDicts.code,
  name: fieldDicts.name,
  description: fieldDicts.description,
  source: fieldDicts.source,
  builtIn: fieldDicts.builtIn,
  createdAt: fieldDicts.createdAt,
  optionCount: sql<number>`(select count(*)::int from field_dict_options o where o.dict_id = "field_dicts"."id")`,
};

export async function listVisibleDicts(db: Executor, tenantId: string, filter: { id?: string; code?: string } = {}) {
  const conditions: (SQL | undefined)[] = [visibleTo(tenantId)];
  if (filter.id) conditions.push(eq(fieldDicts.id, filter.id));
  if (filter.code) conditions.push(eq(fieldDicts.code, filter.code));
  return db
    .select(dictColumns)
    .from(fieldDicts)
    .where(and(...conditions))
    .orderBy(sql`${fieldDicts.tenantId} is not null`, asc(fieldDicts.code));
}

export type DictRow = Awaited<ReturnType<typeof listVisibleDicts>>[number];

export async function insertDictRow(db: Executor, values: typeof fieldDicts.$inferInsert) {
  const [row] = await db.insert(fieldDicts).values(values).returning({ id: fieldDicts.id });
  if (!row) throw new Error('dictionary insert returned no row');
  return row;
}

export async function updateDictRow(
  db: Executor,
  tenantId: string,
  id: string,
  set: { name?: string; description?: string | null },
) {
  await db
    .update(fieldDicts)
    .set(set)
    .where(and(eq(fieldDicts.tenantId, tenantId), eq(fieldDicts.id, id)));
}

export async function deleteDictRow(db: Executor, tenantId: string, id: string) {
  await db.delete(fieldDicts).where(and(eq(fieldDicts.tenantId, tenantId), eq(fieldDicts.id, id)));
}

/** Whether a draft or a published version of the tenant has a field (or group column) drawing from the list. */
export async function isDictUsedByForms(db: Executor, tenantId: string, code: string): Promise<boolean> {
  const vars = sql`jsonb_build_object('code', ${code}::text)`;
  const path = sql.raw(`'strict $.**.dictCode ? (@ == $code)'`);
  const [draft] = await db
    .select({ n: count() })
    .from(formDrafts)
    .where(and(eq(formDrafts.tenantId, tenantId), sql`jsonb_path_exists(${formDrafts.definition}, ${path}, ${vars})`));
  if ((draft?.n ?? 0) > 0) return true;
  const [version] = await db
    .select({ n: count() })
    .from(formVersions)
    .where(
      and(eq(formVersions.tenantId, tenantId), sql`jsonb_path_exists(${formVersions.definition}, ${path}, ${vars})`),
    );
  return (version?.n ?? 0) > 0;
}

export type OptionFilter = {
  dictId?: string;
  keyword?: string;
  codes?: string[];
  enabledOnly?: boolean;
  id?: string;
};

function optionConditions(tenantId: string, filter: OptionFilter): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [visibleTo(tenantId)];
  if (filter.dictId) conditions.push(eq(fieldDictOptions.dictId, filter.dictId));
  if (filter.id) conditions.push(eq(fieldDictOptions.id, filter.id));
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    conditions.push(
      or(
        sql`${fieldDictOptions.code} ilike ${pattern} escape '\\'`,
        sql`${fieldDictOptions.label} ilike ${pattern} escape '\\'`,
        // 拼音码: `xlsj` or `xinli` finds 心力衰竭 (the key holds the initials, a space, the full pinyin)
        mayBePinyin(filter.keyword)
          ? sql`${fieldDictOptions.pinyin} like ${likePattern(filter.keyword.toLowerCase())} escape '\\'`
          : undefined,
      ),
    );
  }
  if (filter.codes)
    conditions.push(filter.codes.length > 0 ? inArray(fieldDictOptions.code, filter.codes) : sql`false`);
  if (filter.enabledOnly) conditions.push(eq(fieldDictOptions.enabled, true));
  return conditions;
}

/**
 * With a keyword, the closest matches first: the exact code (`I50`), codes starting with it (`I50.0`, `I50.9`), labels
 * or pinyin initials starting with it, then the rest in list order.
 */
function keywordRank(keyword: string | undefined): SQL[] {
  if (!keyword) return [];
  const escaped = keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
  const prefix = `${escaped}%`;
  const pinyinPrefix = mayBePinyin(keyword) ? `${escaped.toLowerCase()}%` : null;
  return [
    sql`case
      when ${fieldDictOptions.code} ilike ${escaped} escape '\\' then 0
      when ${fieldDictOptions.code} ilike ${prefix} escape '\\' then 1
      when ${fieldDictOptions.label} ilike ${prefix} escape '\\' then 2
      when ${pinyinPrefix}::text is not null and ${fieldDictOptions.pinyin} like ${pinyinPrefix} escape '\\' then 2
      else 3 end`,
  ];
}

const optionColumns = {
  id: fieldDictOptions.id,
  dictId: fieldDictOptions.dictId,
  dictTenantId: fieldDicts.tenantId,
  dictCode: fieldDicts.code,
  dictName: fieldDicts.name,
  builtIn: fieldDicts.builtIn,
  code: fieldDictOptions.code,
  label: fieldDictOptions.label,
  parentCode: fieldDictOptions.parentCode,
  sort: fieldDictOptions.sort,
  enabled: fieldDictOptions.enabled,
};

/** A page of options of the visible lists, ordered by list, sort, then code. */
export async function pageOptions(
  db: Executor,
  tenantId: string,
  filter: OptionFilter,
  paging: { limit: number; offset: number },
) {
  const where = and(...optionConditions(tenantId, filter));
  const records = await db
    .select(optionColumns)
    .from(fieldDictOptions)
    .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
    .where(where)
    .orderBy(
      asc(fieldDicts.code),
      ...keywordRank(filter.keyword),
      asc(fieldDictOptions.sort),
      asc(fieldDictOptions.code),
    )
    .limit(paging.limit)
    .offset(paging.offset);
  const total = await pageTotal({ offset: paging.offset, size: paging.limit, rows: records.length }, async () => {
    const [c] = await db
      .select({ n: count() })
      .from(fieldDictOptions)
      .innerJoin(fieldDicts, eq(fieldDicts.id, fieldDictOptions.dictId))
      .where(where);
    return c?.n ?? 0;
  });
  return { total, records };
}

export type OptionRow = Awaited<ReturnType<typeof pageOptions>>['records'][number];

export async function findVisibleOption(db: Executor, tenantId: string, id: string): Promise<OptionRow | undefined> {
  const { records } = await pageOptions(db, tenantId, { id }, { limit: 1, offset: 0 });
  return records[0];
}

export async function findOptionByCode(db: Executor, dictId: string, code: string) {
  const [row] = await db
    .select({ id: fieldDictOptions.id })
    .from(fieldDictOptions)
    .where(and(eq(fieldDictOptions.dictId, dictId), eq(fieldDictOptions.code, code)))
    .limit(1);
  return row;
}

export async function nextOptionSort(db: Executor, dictId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${fieldDictOptions.sort}) + 1, 0)::int` })
    .from(fieldDictOptions)
    .where(eq(fieldDictOptions.dictId, dictId));
  return row?.n ?? 0;
}

export async function insertOptionRow(db: Executor, values: typeof fieldDictOptions.$inferInsert) {
  const [row] = await db.insert(fieldDictOptions).values(values).returning({ id: fieldDictOptions.id });
  if (!row) throw new Error('option insert returned no row');
  return row;
}

export async function updateOptionRow(
  db: Executor,
  tenantId: string,
  id: string,
  set: { label?: string; pinyin?: string; sort?: number; enabled?: boolean },
) {
  await db
    .update(fieldDictOptions)
    .set(set)
    .where(and(eq(fieldDictOptions.tenantId, tenantId), eq(fieldDictOptions.id, id)));
}

export async function deleteOptionRow(db: Executor, tenantId: string, id: string) {
  await db.delete(fieldDictOptions).where(and(eq(fieldDictOptions.tenantId, tenantId), eq(fieldDictOptions.id, id)));
}

export type AreaFilter = { parentCode?: string; level?: number; keyword?: string; codes?: string[] };

/** A page of administrative areas in code order, each with whether it has children. */
export async function pageAreas(db: Executor, filter: AreaFilter, paging: { limit: number; offset: number }) {
  const conditions: (SQL | undefined)[] = [];
  if (filter.parentCode) conditions.push(eq(areas.parentCode, filter.parentCode));
  if (filter.level) conditions.push(eq(areas.level, filter.level));
  if (filter.keyword) {
    const pattern = likePattern(filter.keyword);
    conditions.push(
      /^\d+$/.test(filter.keyword)
        ? sql`${areas.code} like ${`${filter.keyword}%`}`
        : sql`${areas.name} ilike ${pattern} escape '\\'`,
    );
  }
  if (filter.codes) conditions.push(filter.codes.length > 0 ? inArray(areas.code, filter.codes) : sql`false`);
  // no filter at all: the provinces (the cascader's first column)
  if (conditions.length === 0) conditions.push(isNull(areas.parentCode));
  const where = and(...conditions);
  const records = await db
    .select({
      code: areas.code,
      name: areas.name,
      parentCode: areas.parentCode,
      level: areas.level,
      fullName: areas.fullName,
      // written out: inside a one-table select Drizzle leaves columns unqualified, which the subquery would capture
      hasChildren: sql<boolean>`exists (select 1 from areas c where c.parent_code = "areas"."code")`,
    })
    .from(areas)
    .where(where)
    .orderBy(asc(areas.code))
    .limit(paging.limit)
    .offset(paging.offset);
  const total = await pageTotal({ offset: paging.offset, size: paging.limit, rows: records.length }, async () => {
    const [c] = await db.select({ n: count() }).from(areas).where(where);
    return c?.n ?? 0;
  });
  return { total, records };
}

export type AreaRow = Awaited<ReturnType<typeof pageAreas>>['records'][number];

/** Rows per statement of an import (one `unnest` each). */
const IMPORT_BATCH = 5000;

/** Serialises writers of one list (two imports at once) until the transaction ends. */
export async function lockDictRow(tx: Executor, dictId: string): Promise<void> {
  await tx.execute(sql`select 1 from ${fieldDicts} where id = ${dictId}::uuid for update`);
}

/** Every option of one list, for an import to compare with. */
export async function listDictOptions(db: Executor, dictId: string) {
  return db
    .select({
      id: fieldDictOptions.id,
      code: fieldDictOptions.code,
      label: fieldDictOptions.label,
      parentCode: fieldDictOptions.parentCode,
      sort: fieldDictOptions.sort,
      enabled: fieldDictOptions.enabled,
    })
    .from(fieldDictOptions)
    .where(eq(fieldDictOptions.dictId, dictId));
}

type ImportedOption = {
  code: string;
  label: string;
  pinyin: string;
  parentCode: string | null;
  sort: number;
  enabled: boolean;
};

export async function insertOptionRows(tx: Executor, dictId: string, tenantId: string, rows: ImportedOption[]) {
  for (let i = 0; i < rows.length; i += IMPORT_BATCH) {
    const part = rows.slice(i, i + IMPORT_BATCH);
    await tx.execute(sql`
      insert into ${fieldDictOptions} (dict_id, tenant_id, code, label, pinyin, parent_code, sort, enabled)
      select ${dictId}::uuid, ${tenantId}::uuid, code, label, pinyin, parent_code, sort, enabled
      from unnest(
        ${sql.param(part.map((r) => r.code))}::text[],
        ${sql.param(part.map((r) => r.label))}::text[],
        ${sql.param(part.map((r) => r.pinyin))}::text[],
        ${sql.param(part.map((r) => r.parentCode))}::text[],
        ${sql.param(part.map((r) => r.sort))}::int[],
        ${sql.param(part.map((r) => r.enabled))}::boolean[]
      ) as t(code, label, pinyin, parent_code, sort, enabled)`);
  }
}

export async function updateOptionRows(
  tx: Executor,
  dictId: string,
  tenantId: string,
  rows: (ImportedOption & { id: string })[],
) {
  for (let i = 0; i < rows.length; i += IMPORT_BATCH) {
    const part = rows.slice(i, i + IMPORT_BATCH);
    await tx.execute(sql`
      update ${fieldDictOptions} o
      set label = t.label, pinyin = t.pinyin, parent_code = t.parent_code, sort = t.sort, enabled = t.enabled
      from unnest(
        ${sql.param(part.map((r) => r.id))}::uuid[],
        ${sql.param(part.map((r) => r.label))}::text[],
        ${sql.param(part.map((r) => r.pinyin))}::text[],
        ${sql.param(part.map((r) => r.parentCode))}::text[],
        ${sql.param(part.map((r) => r.sort))}::int[],
        ${sql.param(part.map((r) => r.enabled))}::boolean[]
      ) as t(id, label, pinyin, parent_code, sort, enabled)
      where o.id = t.id and o.dict_id = ${dictId}::uuid and o.tenant_id = ${tenantId}::uuid`);
  }
}

export async function disableOptionRows(tx: Executor, dictId: string, tenantId: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += IMPORT_BATCH) {
    await tx
      .update(fieldDictOptions)
      .set({ enabled: false })
      .where(
        and(
          eq(fieldDictOptions.dictId, dictId),
          eq(fieldDictOptions.tenantId, tenantId),
          inArray(fieldDictOptions.id, ids.slice(i, i + IMPORT_BATCH)),
        ),
      );
  }
}
