import { z } from 'zod';
import {
  COHORT_FOLLOWUP_STATUSES,
  COHORT_GROUP_OPS,
  COHORT_LIMITS,
  COHORT_OPS,
  COHORT_OP_LABELS,
  COHORT_PATIENT_ATTRS,
  COHORT_PATIENT_ATTR_LABELS,
  type CohortFollowupStatus,
  type CohortGroupOp,
  type CohortOp,
  type CohortPatientAttr,
} from './cohort-codes';
import { operandProblem, patientOperand, shapeProblem } from './operators';

// the codes live without zod (the web's cohort builder imports them from there); the contract re-exports them
export * from './cohort-codes';

/**
 * A cohort definition (issue 15 "Retrieval"): the patients of a project that satisfy a tree of conditions. Stored
 * and sent as JSON; `checkCohort` (`check.ts`) checks it against the project's published form definition, and
 * `evaluateCohort` (`evaluate.ts`) is THE meaning of it (the server's SQL compiler is property-tested against it).
 *
 * ```
 * { version: 1, root: Group }
 * Group      { kind: 'group', op: 'and' | 'or', not?: boolean, items: Item[] }        (nested at most 5 levels)
 * Item       Group | Patient | Field | Rows | Followup                               (later: { kind: 'random', arm })
 * Patient    { kind: 'patient', attr, op, value? }
 * Field      { kind: 'field', formKey, fieldKey, op, value?, other?: { formKey, fieldKey }, days? }
 * Rows       { kind: 'rows', formKey, groupKey?, conditions: { fieldKey, op, value?, other?, days? }[] }
 * Followup   { kind: 'followup', status }
 * ```
 *
 * A row group asks for ONE row on which all its conditions hold:
 * - without `groupKey`, a row is a record of a repeating form (“同一条记录”: the same hospital stay);
 * - with `groupKey`, a group field (a table inside a record, e.g. the lab table `lb_rows`) of that form, a row is one
 *   row of that table in any live record of the form (“同一行”: “a lab row where item = NT-proBNP and value > 1000”),
 *   and the conditions' `fieldKey`s are the group's columns. The form may be repeating or not.
 * A group's column is searched only inside a row group naming its group: a field condition (or a `withinDaysOf`'s
 * other field) on a column is refused by the checker. So one question has one spelling (a lone column condition
 * is a row group of one condition), and `empty` on a column has one meaning (some row where it is blank), never
 * "no row has a value", which is `NOT` of a row group with `notEmpty`.
 *
 * The schema checks everything that does not need the form definition: shapes, bounds (`COHORT_LIMITS`), each
 * operator's operand shape, and the whole of a patient condition. Nesting is bounded by the schema's structure (five
 * group levels are spelled out), so a deeply nested body fails at level six instead of recursing as deep as it goes.
 */

export type CohortValue = number | string | string[] | [number, number];

/** A field by its form and key. */
export type CohortFieldRef = { formKey: string; fieldKey: string };

/** A field condition inside a row group: its form is the row group's. */
export type CohortRowCondition = {
  fieldKey: string;
  op: CohortOp;
  value?: CohortValue;
  /** `withinDaysOf`: the other date field and the largest difference in days. */
  other?: CohortFieldRef;
  days?: number;
};
export type CohortFieldCondition = CohortRowCondition & { kind: 'field'; formKey: string };
/** One row of a repeating form's records (no `groupKey`), or of a group field's rows (`groupKey`) on which all hold. */
export type CohortRowGroup = { kind: 'rows'; formKey: string; groupKey?: string; conditions: CohortRowCondition[] };
export type CohortPatientCondition = { kind: 'patient'; attr: CohortPatientAttr; op: CohortOp; value?: CohortValue };
export type CohortFollowupCondition = { kind: 'followup'; status: CohortFollowupStatus };
export type CohortGroup = { kind: 'group'; op: CohortGroupOp; not?: boolean; items: CohortItem[] };
export type CohortItem =
  CohortGroup | CohortPatientCondition | CohortFieldCondition | CohortRowGroup | CohortFollowupCondition;
export type CohortDefinition = { version: 1; root: CohortGroup };

const { textLength, listItems, days: maxDays, conditions: maxConditions, depth: maxDepth } = COHORT_LIMITS;

const formKey = z.string('请选择表单').min(1, '请选择表单').max(64, '表单不存在');
const fieldKey = z.string('请选择字段').min(1, '请选择字段').max(64, '字段不存在');

const text = z.string().max(textLength, `比较值不能超过${textLength}个字符`);

/**
 * A number, a text, a list of texts (codes, ids, a date range) or a number range; texts and lists bounded. A union
 * (not a custom check) so that the OpenAPI document shows it; a text too long fails in its own branch only and keeps
 * that branch's message. The list's length is checked after the union (a long list also fails the pair's branch).
 */
const value = z
  .union([z.number(), text, z.array(text), z.tuple([z.number(), z.number()])], '比较值不正确')
  .superRefine((v, ctx) => {
    if (Array.isArray(v) && v.length > listItems)
      ctx.addIssue({ code: 'custom', message: `最多选择${listItems}项`, continue: false });
  });

const op = z.enum(COHORT_OPS, '请选择比较方式');

const rowConditionShape = {
  fieldKey,
  op,
  value: value.optional(),
  other: z.object({ formKey, fieldKey }, '请选择另一个日期字段').optional(),
  days: z
    .number('天数须为整数')
    .int('天数须为整数')
    .min(0, '天数不能为负数')
    .max(maxDays, `天数不能超过${maxDays}`)
    .optional(),
};

function checkShape(c: CohortRowCondition, ctx: z.RefinementCtx): void {
  const problem = shapeProblem(c.op, c, '');
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [c.value !== undefined ? 'value' : 'op'] });
}

const rowCondition = z.object(rowConditionShape, '条件不正确').superRefine(checkShape);

const fieldCondition = z
  .object({ kind: z.literal('field'), formKey, ...rowConditionShape }, '条件不正确')
  .superRefine(checkShape);

const patientCondition = z
  .object(
    {
      kind: z.literal('patient'),
      attr: z.enum(COHORT_PATIENT_ATTRS, '请选择患者信息'),
      op,
      value: value.optional(),
    },
    '条件不正确',
  )
  .superRefine((c, ctx) => {
    const name = `「${COHORT_PATIENT_ATTR_LABELS[c.attr]}」`;
    const kind = patientOperand(c.attr, c.op);
    if (kind === null) {
      ctx.addIssue({ code: 'custom', path: ['op'], message: `${name}不能使用「${COHORT_OP_LABELS[c.op]}」条件` });
      return;
    }
    const problem = operandProblem(kind, c.value, name);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  });

const rowGroup = z.object(
  {
    kind: z.literal('rows'),
    formKey,
    groupKey: z.string('请选择表格').min(1, '请选择表格').max(64, '表格不存在').optional(),
    conditions: z.array(rowCondition, '条件不正确').max(maxConditions, `条件不能超过${maxConditions}个`),
  },
  '条件不正确',
);

const followupCondition = z.object(
  { kind: z.literal('followup'), status: z.enum(COHORT_FOLLOWUP_STATUSES, '请选择随访情况') },
  '条件不正确',
);

const groupOp = z.enum(COHORT_GROUP_OPS, '请选择条件组的组合方式');
const groupNot = z.boolean('条件组的“不满足”须为是或否').optional();

/** A group one level too deep: refused whatever it holds. */
const tooDeep = z
  .object({ kind: z.literal('group') })
  // aborting: the definition's own checks (the condition count) never see this group's missing items
  .superRefine((_, ctx) => ctx.addIssue({ code: 'custom', message: `条件组最多嵌套${maxDepth}层`, continue: false }));

/** A group whose nested groups are `inner` (the next level, or `tooDeep`). */
function groupOf(inner: typeof tooDeep) {
  return z.object(
    {
      kind: z.literal('group'),
      op: groupOp,
      not: groupNot,
      items: z
        .array(
          z.discriminatedUnion('kind', [inner, patientCondition, fieldCondition, rowGroup, followupCondition], {
            error: '条件类型不正确',
          }),
          '条件不正确',
        )
        .max(maxConditions, `条件不能超过${maxConditions}个`),
    },
    '条件组不正确',
  );
}

// COHORT_LIMITS.depth levels, the root being the first (spelled out: the schema's structure is the bound)
const level5 = groupOf(tooDeep);
const level4 = groupOf(level5 as unknown as typeof tooDeep);
const level3 = groupOf(level4 as unknown as typeof tooDeep);
const level2 = groupOf(level3 as unknown as typeof tooDeep);
const level1 = groupOf(level2 as unknown as typeof tooDeep);

// The leaves' inferred types are the hand-written ones (a compile error here when they drift apart).
const _leaves: [
  (x: z.output<typeof patientCondition>) => CohortPatientCondition,
  (x: z.output<typeof fieldCondition>) => CohortFieldCondition,
  (x: z.output<typeof rowGroup>) => CohortRowGroup,
  (x: z.output<typeof followupCondition>) => CohortFollowupCondition,
] = [(x) => x, (x) => x, (x) => x, (x) => x];

/** Conditions in all (a row group's conditions each count; groups and the row group itself do not). */
export function countConditions(group: CohortGroup): number {
  let n = 0;
  for (const item of group.items) {
    if (item.kind === 'group') n += countConditions(item);
    else if (item.kind === 'rows') n += item.conditions.length;
    else n += 1;
  }
  return n;
}

const definitionSchema = z
  .object({ version: z.literal(1, '条件版本不正确'), root: level1 }, '检索条件不正确')
  .superRefine((d, ctx) => {
    if (countConditions(d.root as unknown as CohortGroup) > maxConditions)
      ctx.addIssue({ code: 'custom', path: ['root'], message: `条件总数不能超过${maxConditions}个` });
  });

/**
 * THE cohort definition contract. Its output is typed as the recursive `CohortDefinition` (the levels spelled out
 * above infer a type per level; each level's items are the same union, so the cast only forgets the depth).
 */
export const cohortDefinition = definitionSchema as unknown as z.ZodType<CohortDefinition, unknown>;
