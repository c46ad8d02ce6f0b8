import type {
  AssignMode,
  ContactMethod,
  PlanAnchor,
  PlanInput,
  PlanKind,
  PlanVO,
  VisitInput,
} from '@registry/shared/contracts/followup';
import type { OffsetUnit } from '@registry/shared/followup/schedule';
import type { ValidationIssue } from '@registry/shared/contracts/envelope';

/** One row of the visits table (the contract's `visitInput`, blanks allowed while editing). */
export type VisitRow = {
  id?: string;
  name?: string;
  offset?: number | null;
  offsetUnit?: OffsetUnit | null;
  fixedDate?: string | null;
  windowBefore?: number | null;
  windowAfter?: number | null;
  formKeys?: string[];
  contactMethod?: ContactMethod;
};

export type PeriodValues = {
  startDate?: string | null;
  everyMonths?: number | null;
  times?: number | null;
  windowBefore?: number | null;
  windowAfter?: number | null;
  formKeys?: string[];
  contactMethod?: ContactMethod;
};

export type FixedMode = 'dates' | 'period';

/**
 * The editor's values. Field names follow the contract (`visits.2.offset`, `anchor.fieldKey`, `period.times`,
 * `rule.field.values`) so the server's issue paths land on the right field; `fixedMode` and `ruleFieldOn` are the
 * editor's own switches.
 */
export type PlanFormValues = {
  name?: string;
  description?: string | null;
  anchor?: { type?: 'enrol' | 'field'; formKey?: string; fieldKey?: string };
  fixedMode?: FixedMode;
  period?: PeriodValues;
  visits?: VisitRow[];
  assignMode?: AssignMode;
  rule?: {
    subProjectIds?: string[];
    field?: { formKey?: string; fieldKey?: string; op?: 'eq' | 'filled'; values?: string[] };
  };
  ruleFieldOn?: boolean;
  remindDaysBefore?: number | null;
  defaultOwnerId?: string | null;
};

export const DEFAULT_VISIT: Readonly<VisitRow> = {
  offsetUnit: 'month',
  windowBefore: 7,
  windowAfter: 7,
  formKeys: [],
  contactMethod: 'phone',
};

export function defaultValues(followUpFormKeys: string[]): PlanFormValues {
  return {
    name: '',
    description: '',
    anchor: { type: 'enrol' },
    fixedMode: 'dates',
    period: {
      everyMonths: 3,
      times: 4,
      windowBefore: 7,
      windowAfter: 7,
      formKeys: followUpFormKeys,
      contactMethod: 'phone',
    },
    visits: [],
    assignMode: 'manual',
    rule: { subProjectIds: [], field: { op: 'eq', values: [] } },
    ruleFieldOn: false,
    remindDaysBefore: 3,
    defaultOwnerId: null,
  };
}

export function fromPlan(plan: PlanVO): PlanFormValues {
  const field = plan.rule?.field ?? null;
  return {
    name: plan.name,
    description: plan.description ?? '',
    anchor:
      plan.anchor?.type === 'field'
        ? { type: 'field', formKey: plan.anchor.formKey, fieldKey: plan.anchor.fieldKey }
        : { type: 'enrol' },
    fixedMode: plan.period ? 'period' : 'dates',
    period: plan.period
      ? { ...plan.period }
      : { everyMonths: 3, times: 4, windowBefore: 7, windowAfter: 7, formKeys: [], contactMethod: 'phone' },
    visits: [...plan.visits]
      .sort((a, b) => a.seq - b.seq)
      .map((v) => ({
        id: v.id,
        name: v.name,
        offset: v.offset,
        offsetUnit: v.offsetUnit,
        fixedDate: v.fixedDate,
        windowBefore: v.windowBefore,
        windowAfter: v.windowAfter,
        formKeys: v.formKeys,
        contactMethod: v.contactMethod,
      })),
    assignMode: plan.assignMode,
    rule: {
      subProjectIds: plan.rule?.subProjectIds ?? [],
      field: field
        ? { formKey: field.formKey, fieldKey: field.fieldKey, op: field.op, values: field.values ?? [] }
        : { op: 'eq', values: [] },
    },
    ruleFieldOn: field !== null,
    remindDaysBefore: plan.remindDaysBefore,
    defaultOwnerId: plan.defaultOwnerId,
  };
}

const num = (value: number | null | undefined) => (typeof value === 'number' ? value : (null as unknown as number));

function visitBody(row: VisitRow, kind: PlanKind): VisitInput {
  return {
    ...(row.id ? { id: row.id } : {}),
    name: (row.name ?? '').trim(),
    offset: kind === 'relative' ? (row.offset ?? null) : null,
    offsetUnit: kind === 'relative' ? (row.offsetUnit ?? null) : null,
    fixedDate: kind === 'fixed' ? (row.fixedDate ?? null) : null,
    windowBefore: num(row.windowBefore),
    windowAfter: num(row.windowAfter),
    formKeys: row.formKeys ?? [],
    contactMethod: row.contactMethod as ContactMethod,
  };
}

/** The request body (`planInput`) of the editor's values. */
export function toBody(values: PlanFormValues, kind: PlanKind): PlanInput {
  const anchor: PlanAnchor | null =
    kind !== 'relative'
      ? null
      : values.anchor?.type === 'field'
        ? { type: 'field', formKey: values.anchor.formKey ?? '', fieldKey: values.anchor.fieldKey ?? '' }
        : { type: 'enrol' };
  const usePeriod = kind === 'fixed' && values.fixedMode === 'period';
  const p = values.period ?? {};
  const field = values.rule?.field;
  return {
    name: (values.name ?? '').trim(),
    description: values.description?.trim() ? values.description.trim() : null,
    kind,
    anchor,
    period: usePeriod
      ? {
          startDate: p.startDate ?? '',
          everyMonths: num(p.everyMonths),
          times: num(p.times),
          windowBefore: num(p.windowBefore),
          windowAfter: num(p.windowAfter),
          formKeys: p.formKeys ?? [],
          contactMethod: p.contactMethod as ContactMethod,
        }
      : null,
    visits: usePeriod ? [] : (values.visits ?? []).map((row) => visitBody(row, kind)),
    assignMode: values.assignMode ?? 'manual',
    rule:
      values.assignMode === 'auto'
        ? {
            subProjectIds: values.rule?.subProjectIds ?? [],
            field:
              values.ruleFieldOn && field
                ? {
                    formKey: field.formKey ?? '',
                    fieldKey: field.fieldKey ?? '',
                    op: field.op ?? 'eq',
                    values: field.op === 'filled' ? [] : (field.values ?? []),
                  }
                : null,
          }
        : null,
    remindDaysBefore: values.remindDaysBefore ?? 0,
    defaultOwnerId: values.defaultOwnerId ?? null,
  };
}

type Timing = Pick<VisitInput, 'offset' | 'offsetUnit' | 'fixedDate' | 'windowBefore' | 'windowAfter'>;
const timing = (v: Timing) =>
  JSON.stringify([v.offset ?? null, v.offsetUnit ?? null, v.fixedDate ?? null, v.windowBefore, v.windowAfter]);
const anchorKey = (a: PlanAnchor | null | undefined) =>
  !a ? 'none' : a.type === 'enrol' ? 'enrol' : `field:${a.formKey}:${a.fieldKey}`;
const periodKey = (p: PlanInput['period']) =>
  p ? JSON.stringify([p.startDate, p.everyMonths, p.times, p.windowBefore, p.windowAfter]) : 'none';

/**
 * Whether the body changes when a plan's tasks fall: the anchor, the period, a visit added or removed, or a visit's
 * offset, date or window. (Names, forms and methods do not move any task.)
 */
export function scheduleChanged(plan: PlanVO, body: PlanInput): boolean {
  if (anchorKey(plan.anchor) !== anchorKey(body.anchor)) return true;
  if (periodKey(plan.period) !== periodKey(body.period)) return true;
  if (body.period) return false;
  const before = new Map(plan.visits.map((v) => [v.id, timing(v)]));
  const after = body.visits ?? [];
  if (after.length !== before.size) return true;
  return after.some((v) => !v.id || before.get(v.id) !== timing(v));
}

const FORM_ROOTS = new Set([
  'name',
  'description',
  'anchor',
  'period',
  'visits',
  'assignMode',
  'rule',
  'remindDaysBefore',
  'defaultOwnerId',
]);

/** The server's issues (`visits.2.offset`) as antd field names (`['visits', 2, 'offset']`), for fields the editor has. */
export function issueFields(issues: readonly ValidationIssue[]): { name: (string | number)[]; errors: string[] }[] {
  return (
    issues
      .map((issue) => ({
        name: issue.path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        errors: [issue.message],
      }))
      .filter((f) => typeof f.name[0] === 'string' && FORM_ROOTS.has(f.name[0]))
      // The list itself ("访视不能超过200个") has no field to show it under: the toast says it.
      .filter((f) => !(f.name.length === 1 && f.name[0] === 'visits'))
  );
}
