import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  smallint,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { tenants } from './identity';

/**
 * Option lists (dictionaries) for `dict` fields: gender, ethnicity, blood type, units, ICD-10 ... `tenant_id` null =
 * a built-in system list, read by every tenant; a tenant's own list may not reuse a built-in code (service check).
 */
export const fieldDicts = pgTable(
  'field_dicts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    /** Where the options come from (e.g. the dataset package of a bundled list). */
    source: text('source'),
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('field_dicts_tenant_code_uq').on(t.tenantId, t.code).nullsNotDistinct(),
    index('field_dicts_code_idx').on(t.code),
  ],
);

export const fieldDictOptions = pgTable(
  'field_dict_options',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dictId: uuid('dict_id')
      .notNull()
      .references(() => fieldDicts.id, { onDelete: 'cascade' }),
    /** null for the options of a built-in list. */
    tenantId: uuid('tenant_id').references(() => tenants.id),
    code: text('code').notNull(),
    label: text('label').notNull(),
    /** Search key of the label: pinyin initials, a space, then the full toneless pinyin (`xlsj xinlishuaijie`). */
    pinyin: text('pinyin').notNull().default(''),
    parentCode: text('parent_code'),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    uniqueIndex('field_dict_options_dict_code_uq').on(t.dictId, t.code),
    index('field_dict_options_dict_sort_idx').on(t.dictId, t.sort, t.code),
    index('field_dict_options_dict_parent_idx').on(t.dictId, t.parentCode),
  ],
);

/** China's administrative divisions (GB/T 2260): provinces (1), prefectures (2), counties (3). Reference data. */
export const areas = pgTable(
  'areas',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    parentCode: text('parent_code'),
    level: smallint('level').notNull(),
    /** e.g. 广东省广州市天河区. */
    fullName: text('full_name').notNull(),
  },
  (t) => [index('areas_parent_idx').on(t.parentCode, t.code), check('areas_level_ck', sql`${t.level} between 1 and 3`)],
);
