/**
 * The codes, labels and limits of a cohort definition (`definition.ts`), without its zod schema: the web's cohort
 * builder imports them from here (and the operator tables from `operators.ts`), so a page that shows a saved cohort
 * does not load zod. `definition.ts` re-exports them.
 */

/** How a group combines its items: all of them, or any one. */
export const COHORT_GROUP_OPS = ['and', 'or'] as const;
export type CohortGroupOp = (typeof COHORT_GROUP_OPS)[number];
export const COHORT_GROUP_OP_LABELS: Readonly<Record<CohortGroupOp, string>> = {
  and: '满足全部条件',
  or: '满足任一条件',
};
/** The label of a group's `not`. */
export const COHORT_NOT_LABEL = '不满足';

/**
 * The kinds of a cohort item. A later kind (`{ kind: 'random', arm }`, the randomisation arm) is added to this list
 * and to the schema's union; nothing else changes (an evaluator or SQL compiler that meets an unknown kind refuses
 * the definition rather than guessing).
 */
export const COHORT_ITEM_KINDS = ['group', 'patient', 'field', 'rows', 'followup'] as const;
export type CohortItemKind = (typeof COHORT_ITEM_KINDS)[number];
export const COHORT_ITEM_KIND_LABELS: Readonly<Record<CohortItemKind, string>> = {
  group: '条件组',
  patient: '患者信息',
  field: '表单字段',
  rows: '同一条记录',
  followup: '随访情况',
};
/** The label of a row group over a group field's rows (`groupKey`), where `rows` alone is one record of a form. */
export const COHORT_GROUP_ROWS_LABEL = '同一行';

/** The patient attributes a condition may test (the `patients` row; `sex` is its GB/T 2261.1 `gender` column). */
export const COHORT_PATIENT_ATTRS = ['center', 'subProject', 'enrolDate', 'status', 'sex', 'ageAtEnrol'] as const;
export type CohortPatientAttr = (typeof COHORT_PATIENT_ATTRS)[number];
export const COHORT_PATIENT_ATTR_LABELS: Readonly<Record<CohortPatientAttr, string>> = {
  center: '中心',
  subProject: '子项目',
  enrolDate: '入组日期',
  status: '患者状态',
  sex: '性别',
  ageAtEnrol: '入组年龄',
};

/** Every comparison operator; which one fits which field type or attribute is `operators.ts`. */
export const COHORT_OPS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'before',
  'after',
  'withinDaysOf',
  'contains',
  'in',
  'notIn',
  'anyOf',
  'allOf',
  'noneOf',
  'empty',
  'notEmpty',
] as const;
export type CohortOp = (typeof COHORT_OPS)[number];
export const COHORT_OP_LABELS: Readonly<Record<CohortOp, string>> = {
  eq: '等于',
  neq: '不等于',
  gt: '大于',
  gte: '大于等于',
  lt: '小于',
  lte: '小于等于',
  between: '介于',
  before: '早于',
  after: '晚于',
  withinDaysOf: '与另一日期相差不超过',
  contains: '包含',
  in: '属于',
  notIn: '不属于',
  anyOf: '包含任一',
  allOf: '包含全部',
  noneOf: '不包含任何',
  empty: '为空',
  notEmpty: '不为空',
};

/** What a follow-up condition asks (see `evaluate.ts` for the exact rule of each). */
export const COHORT_FOLLOWUP_STATUSES = ['due', 'overdue', 'done', 'lost', 'deceased'] as const;
export type CohortFollowupStatus = (typeof COHORT_FOLLOWUP_STATUSES)[number];
export const COHORT_FOLLOWUP_STATUS_LABELS: Readonly<Record<CohortFollowupStatus, string>> = {
  due: '有待随访的任务',
  overdue: '有超窗的随访任务',
  done: '有已完成的随访',
  lost: '失访',
  deceased: '已死亡',
};

/**
 * The bounds of a definition, so that nothing a user sends can make the check, the evaluator or the SQL it compiles
 * to grow without limit: group nesting (the root is level 1), conditions in all (a row group's conditions each
 * count, the row group itself does not), items of one list value, characters of one text value, days of
 * `withinDaysOf`, and the largest age.
 */
export const COHORT_LIMITS = {
  depth: 5,
  conditions: 100,
  listItems: 500,
  textLength: 200,
  days: 36500,
  age: 200,
} as const;
