import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formRecords, patients } from '../../db/schema';
import { escapeLike } from '../../lib/escape-like';
import type { FieldCondition, ListField } from './patient-list-fields';

/**
 * The CRF side of the patient list's SQL: a list field's value on the joined record of its form, a checked filter on
 * it, its sort value, and the list fields' values of a page's patients.
 */

/** CRF conditions of a page: the list fields to show, the checked filters on them, and a field to sort by. */
export type PatientCrfQuery = {
  /** The list fields whose values the page carries (`fields` of each record). */
  fields: readonly ListField[];
  conditions: readonly FieldCondition[];
  sortField?: ListField;
};

export type RecordAlias = ReturnType<typeof alias<typeof formRecords, string>>;

/** A list field's stored value (jsonb) on the joined record of its form. */
const jsonValue = (fr: RecordAlias, field: ListField): SQL => sql`(${fr.data} -> ${field.key})`;
const textValue = (fr: RecordAlias, field: ListField): SQL => sql`(${fr.data} ->> ${field.key})`;
/** A numeric field's value as numeric; a missing-data code (a string) or anything else reads as null. */
const numericValue = (fr: RecordAlias, field: ListField): SQL =>
  sql`(case when jsonb_typeof(${jsonValue(fr, field)}) = 'number' then (${jsonValue(fr, field)})::numeric end)`;
/** A date field's value as `YYYY-MM-DD…` text; a missing-data code reads as null (dates start with 4 digits). */
const dateValue = (fr: RecordAlias, field: ListField): SQL =>
  sql`(case when ${textValue(fr, field)} ~ '^[0-9]{4}' then left(${textValue(fr, field)}, 10) end)`;

/** The SQL of one checked CRF filter on the joined record of its form (values always bound parameters). */
export function crfCondition(fr: RecordAlias, c: FieldCondition): SQL {
  const { field } = c;
  const value = jsonValue(fr, field);
  switch (c.op) {
    case 'empty':
      return sql`coalesce(${value}, 'null'::jsonb) in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;
    case 'notEmpty':
      return sql`coalesce(${value}, 'null'::jsonb) not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;
    case 'contains':
      return sql`${textValue(fr, field)} ilike ${escapeLike(c.value)}`;
    case 'eq': {
      if (field.type === 'datetime' && typeof c.value === 'string' && !field.missingCodes.includes(c.value))
        return sql`${dateValue(fr, field)} = ${c.value}`;
      // Containment (`data @> {"key": value}`): exact for numbers, codes and text, and a GIN index can answer it.
      const stored =
        field.kind === 'multi' && typeof c.value === 'string' && !field.missingCodes.includes(c.value)
          ? [c.value]
          : c.value;
      return sql`${fr.data} @> ${JSON.stringify({ [field.key]: stored })}::jsonb`;
    }
    case 'gte':
    case 'lte': {
      const op = c.op === 'gte' ? sql`>=` : sql`<=`;
      return field.kind === 'number'
        ? sql`${numericValue(fr, field)} ${op} ${c.value}::numeric`
        : sql`${dateValue(fr, field)} ${op} ${String(c.value)}`;
    }
  }
}

/** The ORDER BY expression of a list field: numbers as numbers, dates and codes as text. */
export function crfSortValue(fr: RecordAlias, field: ListField): SQL {
  return field.kind === 'number'
    ? numericValue(fr, field)
    : field.kind === 'date'
      ? dateValue(fr, field)
      : textValue(fr, field);
}

/** The list fields' values of the page's patients: the listed keys of the first live instance of each form. */
export function listValuesSql(tenantId: string, fields: readonly ListField[]) {
  const forms = new Map<string, string[]>();
  for (const f of fields) forms.set(f.formKey, [...(forms.get(f.formKey) ?? []), f.key]);
  const picked = sql.join(
    [...forms].map(
      ([formKey, keys]) =>
        sql`when ${formKey}::text then jsonb_build_object(${sql.join(
          keys.map((k) => sql`${k}::text, ${formRecords.data} -> ${k}::text`),
          sql`, `,
        )})`,
    ),
    sql` `,
  );
  return forms.size
    ? sql<Record<
        string,
        Record<string, unknown>
      > | null>`(select jsonb_object_agg(${formRecords.formKey}, case ${formRecords.formKey} ${picked} end)
        from ${formRecords} where ${formRecords.tenantId} = ${tenantId} and ${formRecords.patientId} = ${patients.id}
         and ${formRecords.formKey} in ${[...forms.keys()]} and ${formRecords.instance} = 1 and ${formRecords.deletedAt} is null)`
    : sql<null>`null::jsonb`;
}
