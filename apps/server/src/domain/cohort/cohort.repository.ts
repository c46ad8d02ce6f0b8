import { sql, type SQL } from 'drizzle-orm';
import { indexForms, type CohortField, type CohortForms, type FormIndex } from '@registry/shared/cohort/check';
import type {
  CohortDefinition,
  CohortFollowupCondition,
  CohortGroup,
  CohortItem,
  CohortPatientCondition,
  CohortRowCondition,
} from '@registry/shared/cohort/definition';
import { fieldSearchKind, fieldOperand, patientOperand, type FieldSearchKind } from '@registry/shared/cohort/operators';
import { followupTasks } from '../../db/schema/followup';
import { formRecords } from '../../db/schema/records';
import { patients } from '../../db/schema/patients';

/**
 * A cohort definition compiled to ONE boolean SQL predicate over the `patients` row of the query it is put in
 * (`select … from patients where <scope> and <predicate>`), read from the records' JSONB data.
 *
 * The meaning is `evaluateCohort` (packages/shared/src/cohort/evaluate.ts), to the letter, and a property test holds
 * the two together (`cohort.repository.property.test.ts`). How the rules of that file map to SQL:
 * - two-valued logic: every leaf is `coalesce(<test>, false)` or a CASE with an ELSE false, so a NULL never reaches
 *   a NOT, and `NOT` of a group is the boolean negation the evaluator applies;
 * - a value is read as `data -> key` (NULL when absent); blank is SQL NULL or JSON null, "" or [];
 * - a cast runs only inside the CASE branch whose guard proved the value has the right JSON type and shape (PostgreSQL
 *   evaluates CASE branches in order; AND/OR operands it may reorder), so no stored value can make the query fail;
 * - a non-repeating form is read from its instance 1 (a scalar subquery: no record reads as all blank); a repeating
 *   form's condition and a row group are an EXISTS over its live records.
 *
 * Nothing the caller sends is spliced into the SQL text: form keys, field keys and values are bound parameters, and
 * the structure of the text comes only from the definition's shape (operators, kinds, nesting) after `checkCohort`
 * has passed. Call it only with a definition the schema parsed and `checkCohort` accepted against `forms`; it throws
 * on anything else rather than guess.
 */
export function compileCohort(def: CohortDefinition, forms: CohortForms, today: string): SQL {
  const index = indexForms(forms);
  return compileGroup(def.root, { index, today });
}

type Ctx = { index: FormIndex; today: string };

function compileGroup(g: CohortGroup, ctx: Ctx): SQL {
  const parts = g.items.map((item) => compileItem(item, ctx));
  const joined =
    parts.length === 0
      ? g.op === 'or'
        ? sql`false`
        : sql`true`
      : sql`(${sql.join(parts, g.op === 'or' ? sql` or ` : sql` and `)})`;
  return g.not === true ? sql`(not ${joined})` : joined;
}

function compileItem(item: CohortItem, ctx: Ctx): SQL {
  switch (item.kind) {
    case 'group':
      return compileGroup(item, ctx);
    case 'patient':
      return patientLeaf(item);
    case 'followup':
      return followupLeaf(item, ctx.today);
    case 'field': {
      const form = formOf(ctx, item.formKey);
      return onRecords(item.formKey, form.repeating, (data) => fieldLeaf(ctx, item.formKey, item, data));
    }
    case 'rows': {
      const form = formOf(ctx, item.formKey);
      const all = (leaves: SQL[]) => (leaves.length === 0 ? sql`true` : sql.join(leaves, sql` and `));
      if (item.groupKey === undefined) {
        if (!form.repeating) throw new Error(`row group on non-repeating form ${item.formKey}`);
        return exists(item.formKey, (data) => all(item.conditions.map((c) => fieldLeaf(ctx, item.formKey, c, data))));
      }
      // a table field's rows: ONE row (a JSON object of the stored array) of some record satisfies every condition
      const group = ctx.index.get(item.formKey)?.groups.get(item.groupKey);
      if (!group) throw new Error(`unknown table ${item.formKey}.${item.groupKey}`);
      const tableKey = item.groupKey;
      return onRecords(item.formKey, form.repeating, (data) => {
        const rows = sql`(${data} -> ${tableKey}::text)`;
        const onRow = { columns: group.columns, row: sql`gr.row` };
        return sql`exists (select 1 from jsonb_array_elements(case when jsonb_typeof(${rows}) = 'array' then ${rows}
          else '[]'::jsonb end) gr(row) where jsonb_typeof(gr.row) = 'object'
          and ${all(item.conditions.map((c) => fieldLeaf(ctx, item.formKey, c, data, onRow)))})`;
      });
    }
    default:
      throw new Error('unknown cohort item');
  }
}

function formOf(ctx: Ctx, formKey: string) {
  const form = ctx.index.get(formKey)?.form;
  if (!form) throw new Error(`unknown form ${formKey}`);
  return form;
}

function fieldOf(ctx: Ctx, formKey: string, fieldKey: string): CohortField {
  const field = ctx.index.get(formKey)?.fields.get(fieldKey);
  if (!field) throw new Error(`unknown field ${formKey}.${fieldKey}`);
  return field;
}

/** The live records of the patient's form `formKey` (alias r). */
const recordsOf = (formKey: string, extra?: SQL) =>
  sql`select 1 from ${formRecords} r where r.tenant_id = ${patients.tenantId} and r.patient_id = ${patients.id}
    and r.form_key = ${formKey}::text and r.deleted_at is null${extra ? sql` and ${extra}` : sql``}`;

/** Some live record of the form satisfies `test` (given its data). Aliases nest: r, then o for another form. */
function exists(formKey: string, test: (data: SQL) => SQL): SQL {
  return sql`exists (${recordsOf(formKey, test(sql`r.data`))})`;
}

/**
 * A condition on a form's records: some live record (repeating), or instance 1 read as one scalar (a form not filled
 * yet reads as no values, which `empty` must see as blank).
 */
function onRecords(formKey: string, repeating: boolean, test: (data: SQL) => SQL): SQL {
  if (repeating) return exists(formKey, test);
  const one = sql`(select r.data from ${formRecords} r where r.tenant_id = ${patients.tenantId}
    and r.patient_id = ${patients.id} and r.form_key = ${formKey}::text and r.instance = 1 and r.deleted_at is null)`;
  return test(sql`coalesce(${one}, '{}'::jsonb)`);
}

// ---- reading JSON values --------------------------------------------------------------------------------------

const A_Z = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const a_z = 'abcdefghijklmnopqrstuvwxyz';

const blank = (v: SQL) => sql`(${v} is null or ${v} in ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;
/** The text of a JSON string (only used behind a `jsonb_typeof = 'string'` guard). */
const text = (v: SQL) => sql`(${v} #>> '{}')`;

/** `s` read as a calendar date `YYYY-MM-DD` (year ≥ 1, day within the month), else NULL; `s` a SQL text. */
function calendarDate(s: SQL): SQL {
  return sql`(case when ${s} ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' and left(${s}, 4) <> '0000'
    then (case when substr(${s}, 9, 2)::int <= extract(day from (make_date(left(${s}, 4)::int, substr(${s}, 6, 2)::int, 1)
      + interval '1 month - 1 day'))::int then ${s}::date end) end)`;
}

/** A date or datetime value: the date of its first 10 characters (`readDate`), else NULL. */
function dateOf(v: SQL): SQL {
  return sql`(case when jsonb_typeof(${v}) = 'string' then ${calendarDate(sql`left(${text(v)}, 10)`)} end)`;
}

/** A partial date's first and last day (`partialDateSpan`), else NULL. */
function partialSpan(v: SQL, end: 'first' | 'last'): SQL {
  const s = text(v);
  const year = end === 'first' ? sql`'-01-01'` : sql`'-12-31'`;
  const month =
    end === 'first' ? sql`(${s} || '-01')::date` : sql`((${s} || '-01')::date + interval '1 month - 1 day')::date`;
  return sql`(case when jsonb_typeof(${v}) <> 'string' then null
    when ${s} ~ '^[0-9]{4}$' then (case when ${s} <> '0000' then (${s} || ${year})::date end)
    when ${s} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$' then (case when left(${s}, 4) <> '0000' then ${month} end)
    when ${s} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then ${calendarDate(s)} end)`;
}

const num = (n: unknown) => sql`${String(n)}::numeric`;
const day = (d: unknown) => sql`${String(d)}::date`;
const textList = (list: unknown) => sql`${sql.param(Array.isArray(list) ? list.map(String) : [])}::text[]`;
const pairOf = (value: unknown): [unknown, unknown] => {
  if (!Array.isArray(value) || value.length !== 2) throw new Error('range expected');
  return [value[0], value[1]];
};

/**
 * A field value's sort key (`v`: a jsonb SQL) as the result page orders by it, NULL when the value is not of its
 * field's type (a missing-data code, a blank): numbers as numeric, dates and datetimes as the date of their first 10
 * characters, a partial date as its first day, text and codes as text, a checkbox's codes as the array's text. Every
 * cast sits behind its guard, so no stored value can make the query fail.
 */
export function sortValue(kind: FieldSearchKind, v: SQL): SQL {
  switch (kind) {
    case 'number':
      return sql`(case when jsonb_typeof(${v}) = 'number' then (${v})::numeric end)`;
    case 'date':
      return dateOf(v);
    case 'partialDate':
      return partialSpan(v, 'first');
    case 'text':
    case 'choice':
      return sql`(case when jsonb_typeof(${v}) = 'string' then nullif(${text(v)}, '') end)`;
    case 'multi':
      return sql`(case when jsonb_typeof(${v}) = 'array' and ${v} <> '[]'::jsonb then (${v})::text end)`;
  }
}

/** A comparison of an ordered SQL value `x` (numeric or date) with the operator's operand. */
function ordered(op: string, x: SQL, value: unknown, lit: (v: unknown) => SQL): SQL {
  switch (op) {
    case 'eq':
      return sql`${x} = ${lit(value)}`;
    case 'neq':
      return sql`${x} <> ${lit(value)}`;
    case 'gt':
    case 'after':
      return sql`${x} > ${lit(value)}`;
    case 'gte':
      return sql`${x} >= ${lit(value)}`;
    case 'lt':
    case 'before':
      return sql`${x} < ${lit(value)}`;
    case 'lte':
      return sql`${x} <= ${lit(value)}`;
    case 'between': {
      const [a, b] = pairOf(value);
      return sql`${x} between ${lit(a)} and ${lit(b)}`;
    }
    default:
      throw new Error(`operator ${op} on an ordered value`);
  }
}

/** A table field's row a condition reads: its columns, and the row (a jsonb object SQL). */
type OnRow = { columns: ReadonlyMap<string, CohortField>; row: SQL };

/**
 * One field condition on one record's data (`data`, a jsonb SQL), or on one row of a table of that record (`onRow`:
 * the condition names a column; `withinDaysOf` may name another column of the same row or a field of the record).
 */
function fieldLeaf(ctx: Ctx, formKey: string, c: CohortRowCondition, data: SQL, onRow?: OnRow): SQL {
  const field = onRow ? onRow.columns.get(c.fieldKey) : fieldOf(ctx, formKey, c.fieldKey);
  if (!field) throw new Error(`unknown column ${formKey}.${c.fieldKey}`);
  const kind = fieldSearchKind(field.type);
  if (kind === null || fieldOperand(kind, c.op) === null)
    throw new Error(`operator ${c.op} on field ${formKey}.${c.fieldKey}`);
  const v = sql`(${onRow ? onRow.row : data} -> ${c.fieldKey}::text)`;
  if (c.op === 'empty') return blank(v);
  if (c.op === 'notEmpty') return sql`(not ${blank(v)})`;
  // every other operator is false on a blank value ('' is a string and [] an array, so their own guards pass them)
  return sql`(case when ${blank(v)} then false else ${valueTest(ctx, formKey, c, kind, v, data, onRow)} end)`;
}

function valueTest(
  ctx: Ctx,
  formKey: string,
  c: CohortRowCondition,
  kind: NonNullable<ReturnType<typeof fieldSearchKind>>,
  v: SQL,
  data: SQL,
  onRow?: OnRow,
): SQL {
  switch (kind) {
    case 'number':
      return sql`(case when jsonb_typeof(${v}) = 'number' then ${ordered(c.op, sql`(${v})::numeric`, c.value, num)} else false end)`;
    case 'date': {
      if (c.op !== 'withinDaysOf') return sql`coalesce(${ordered(c.op, dateOf(v), c.value, day)}, false)`;
      const other = c.other;
      if (!other || typeof c.days !== 'number') throw new Error('withinDaysOf without its other field');
      const within = (o: SQL) =>
        sql`coalesce(abs(${dateOf(v)} - ${dateOf(sql`(${o} -> ${other.fieldKey}::text)`)}) <= ${c.days}::int, false)`;
      if (onRow && other.formKey === formKey && onRow.columns.has(other.fieldKey)) return within(onRow.row);
      fieldOf(ctx, other.formKey, other.fieldKey);
      if (other.formKey === formKey) return within(data);
      return sql`exists (select 1 from ${formRecords} o where o.tenant_id = ${patients.tenantId}
        and o.patient_id = ${patients.id} and o.form_key = ${other.formKey}::text and o.deleted_at is null
        ${formOf(ctx, other.formKey).repeating ? sql`` : sql`and o.instance = 1`} and ${within(sql`o.data`)})`;
    }
    case 'partialDate': {
      if (c.op === 'eq')
        return sql`coalesce(${partialSpan(v, 'first')} is not null and ${text(v)} = ${String(c.value)}::text, false)`;
      if (c.op === 'before') return sql`coalesce(${partialSpan(v, 'last')} < ${day(c.value)}, false)`;
      if (c.op === 'after') return sql`coalesce(${partialSpan(v, 'first')} > ${day(c.value)}, false)`;
      const [a, b] = pairOf(c.value);
      return sql`coalesce(${day(a)} <= ${partialSpan(v, 'first')} and ${partialSpan(v, 'last')} <= ${day(b)}, false)`;
    }
    case 'text': {
      const guarded = (test: SQL) => sql`(case when jsonb_typeof(${v}) = 'string' then ${test} else false end)`;
      if (c.op === 'eq') return guarded(sql`${text(v)} = ${String(c.value)}::text`);
      return guarded(
        sql`strpos(translate(${text(v)}, ${A_Z}, ${a_z}), translate(${String(c.value)}::text, ${A_Z}, ${a_z})) > 0`,
      );
    }
    case 'choice': {
      const guarded = (test: SQL) => sql`(case when jsonb_typeof(${v}) = 'string' then ${test} else false end)`;
      if (c.op === 'eq') return guarded(sql`${text(v)} = ${String(c.value)}::text`);
      if (c.op === 'in') return guarded(sql`${text(v)} = any(${textList(c.value)})`);
      return guarded(sql`not (${text(v)} = any(${textList(c.value)}))`);
    }
    case 'multi': {
      // on an array, ?| and ?& test its string elements (never object keys: the guard proved it is an array)
      const guarded = (test: SQL) => sql`(case when jsonb_typeof(${v}) = 'array' then ${test} else false end)`;
      if (c.op === 'anyOf') return guarded(sql`${v} ?| ${textList(c.value)}`);
      if (c.op === 'allOf') return guarded(sql`${v} ?& ${textList(c.value)}`);
      return guarded(sql`not (${v} ?| ${textList(c.value)})`);
    }
  }
}

// ---- patient attributes and follow-up ---------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Ids as uuids: a text that is not one can equal no patient's id, so it is left out of the list. */
const uuidList = (list: unknown) =>
  sql`${sql.param(Array.isArray(list) ? list.map(String).filter((s) => UUID.test(s)) : [])}::uuid[]`;

function membership(op: string, x: SQL, list: SQL): SQL {
  if (op === 'in') return sql`coalesce(${x} = any(${list}), false)`;
  if (op === 'notIn') return sql`coalesce(not (${x} = any(${list})), false)`;
  throw new Error(`operator ${op} on a list attribute`);
}

function patientLeaf(c: CohortPatientCondition): SQL {
  if (patientOperand(c.attr, c.op) === null) throw new Error(`operator ${c.op} on ${c.attr}`);
  const column: SQL = {
    center: sql`${patients.centerId}`,
    subProject: sql`${patients.subProjectId}`,
    enrolDate: sql`${patients.enrolDate}`,
    status: sql`${patients.status}`,
    sex: sql`nullif(${patients.gender}, '')`,
    ageAtEnrol: sql`(case when ${patients.enrolDate} >= ${patients.birthDate}
      then extract(year from age(${patients.enrolDate}, ${patients.birthDate}))::int end)`,
  }[c.attr];
  if (c.op === 'empty') return sql`(${column} is null)`;
  if (c.op === 'notEmpty') return sql`(${column} is not null)`;
  switch (c.attr) {
    case 'center':
    case 'subProject':
      return membership(c.op, column, uuidList(c.value));
    case 'status':
    case 'sex':
      return membership(c.op, column, textList(c.value));
    case 'enrolDate':
      return sql`coalesce(${ordered(c.op, column, c.value, day)}, false)`;
    case 'ageAtEnrol':
      return sql`coalesce(${ordered(c.op, column, c.value, num)}, false)`;
  }
}

function followupLeaf(c: CohortFollowupCondition, today: string): SQL {
  const tasks = (test: SQL) =>
    sql`exists (select 1 from ${followupTasks} t where t.tenant_id = ${patients.tenantId}
      and t.patient_id = ${patients.id} and ${test})`;
  switch (c.status) {
    case 'due':
      return tasks(sql`t.status = 'open' and t.window_start <= ${today}::date and ${today}::date <= t.window_end`);
    case 'overdue':
      return tasks(sql`t.status = 'open' and t.window_end < ${today}::date`);
    case 'done':
      return tasks(sql`t.status = 'done'`);
    case 'lost':
      return sql`(${patients.followupLostAt} is not null)`;
    case 'deceased':
      return sql`(${patients.status} = 'deceased' or ${patients.deathDate} is not null)`;
  }
}
