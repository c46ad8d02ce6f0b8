import type { z } from 'zod';
import type { PlanAnchor, planCreateRequest, PlanPeriod, PlanRule } from '@registry/shared/contracts/followup';
import { periodicDates } from '@registry/shared/followup/schedule';
import type { FormDefinition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { DefinitionCache } from '../../domain/crf/definition-cache';
import { latestVersionIds } from '../../domain/crf/crf-definition.repository';
import { isUuid, type ProjectScope } from '../../domain/scope/project-scope';
import { PLAN_MESSAGES as M } from './followup-plan.messages';
import {
  findPlanRow,
  isProjectMember,
  subProjectsAmong,
  type PlanRow,
  type SyncPlan,
  type VisitRow,
} from './followup-plan.repository';

/**
 * What a follow-up plan is made of: the plan as create and update send it, checked against the published definition,
 * the sub-projects and the members (`checkPlan`), and as it is stored; the plan as task generation reads it; a plan
 * the caller sees. Shared by the plan and assignment services.
 */

/** A plan as create and update send it. */
export type PlanInput = z.output<typeof planCreateRequest>;
type Issue = { path: string; message: string };

/** A visit as it will be stored (`id` set: an existing visit kept). */
export type VisitSpec = {
  id?: string;
  name: string;
  offset: number | null;
  offsetUnit: VisitRow['offsetUnit'];
  fixedDate: string | null;
  windowBefore: number;
  windowAfter: number;
  formKeys: string[];
  contactMethod: string;
};

/** The checked plan: what is stored. */
export type PlanSpec = {
  name: string;
  description: string | null;
  kind: 'relative' | 'fixed';
  anchor: PlanAnchor | null;
  period: PlanPeriod | null;
  visits: VisitSpec[];
  assignMode: 'manual' | 'auto';
  rule: PlanRule | null;
  remindDaysBefore: number;
  defaultOwnerId: string | null;
};

/** The published forms of the scope: the current project's latest version, then its parent's. */
export type PublishedForms = { published: boolean; forms: Map<string, FormDefinition> };

export const timing = (v: Pick<VisitSpec, 'offset' | 'offsetUnit' | 'fixedDate' | 'windowBefore' | 'windowAfter'>) =>
  JSON.stringify([v.offset, v.offsetUnit, v.fixedDate, v.windowBefore, v.windowAfter]);

export async function publishedForms(
  ex: Executor,
  definitions: DefinitionCache,
  scope: ProjectScope,
): Promise<PublishedForms> {
  const projectIds = [...new Set([scope.projectId, scope.rootProjectId])];
  const ids = await latestVersionIds(ex, scope.tenantId, projectIds);
  const versions = await definitions.load(ex, scope.tenantId, ids);
  const forms = new Map<string, FormDefinition>();
  for (const id of ids)
    for (const category of versions.get(id)?.definition.categories ?? [])
      for (const form of category.forms) if (!forms.has(form.key)) forms.set(form.key, form);
  return { published: ids.length > 0, forms };
}

export function anchorLabelOf(anchor: PlanAnchor | null, forms: PublishedForms): string | null {
  if (!anchor) return null;
  if (anchor.type === 'enrol') return '入组日期';
  const form = forms.forms.get(anchor.formKey);
  const field = form?.fields.find((f) => f.key === anchor.fieldKey);
  return `${form?.title ?? anchor.formKey} · ${field?.label ?? anchor.fieldKey}`;
}

export async function visiblePlan(ex: Executor, scope: ProjectScope, id: string): Promise<PlanRow> {
  const row = isUuid(id) ? await findPlanRow(ex, scope.tenantId, scope.projectId, id) : undefined;
  if (!row) throw new AppError(404, M.notFound);
  return row;
}

/**
 * Checks a plan against its kind, the published definition, the project's sub-projects and members: 400 with
 * every issue at its path (`visits.2.offset`, `anchor.fieldKey`, ...). Fixed periodic plans get their visits here.
 */
export async function checkPlan(
  db: Executor,
  definitions: DefinitionCache,
  scope: ProjectScope,
  input: PlanInput,
): Promise<PlanSpec> {
  const issues: Issue[] = [];
  const forms = await publishedForms(db, definitions, scope);
  const formExists = (key: string, path: string) => {
    if (!forms.forms.has(key)) issues.push({ path, message: `表单「${key}」不在已发布的数据库中` });
  };
  /** A field of a non-repeating published form (of type `date` for an anchor); the issue names it otherwise. */
  const fieldOf = (formKey: string, fieldKey: string, path: string, what: string, dateOnly: boolean) => {
    if (!forms.published) {
      issues.push({ path, message: `${M.noDefinition}${what}` });
      return;
    }
    const form = forms.forms.get(formKey);
    const field = form?.fields.find((f) => f.key === fieldKey);
    if (!form || !field) issues.push({ path, message: `${what}「${formKey}.${fieldKey}」不在已发布的数据库中` });
    else if (form.repeating)
      issues.push({ path, message: `${what}「${form.title} · ${field.label}」属于重复表单，请选择非重复表单的字段` });
    else if (dateOnly && field.type !== 'date')
      issues.push({ path, message: `${what}「${form.title} · ${field.label}」不是日期字段` });
  };

  const kind = input.kind;
  const anchor = kind === 'relative' ? (input.anchor ?? null) : null;
  if (kind === 'relative') {
    if (!anchor) issues.push({ path: 'anchor', message: M.anchorRequired });
    else if (anchor.type === 'field') fieldOf(anchor.formKey, anchor.fieldKey, 'anchor.fieldKey', '基准日期字段', true);
  }

  let period: PlanPeriod | null = null;
  let visits: VisitSpec[];
  if (kind === 'fixed' && input.period) {
    period = input.period;
    const p = input.period;
    p.formKeys.forEach((k, j) => formExists(k, `period.formKeys.${j}`));
    visits = periodicDates(p.startDate, p.everyMonths, p.times).map((fixedDate, k) => ({
      name: `第${k + 1}次随访`,
      offset: null,
      offsetUnit: null,
      fixedDate,
      windowBefore: p.windowBefore,
      windowAfter: p.windowAfter,
      formKeys: [...p.formKeys],
      contactMethod: p.contactMethod,
    }));
  } else {
    if (input.visits.length === 0) issues.push({ path: 'visits', message: M.visitsRequired });
    const names = new Map<string, number>();
    const ids = new Set<string>();
    visits = input.visits.map((v, i) => {
      const at = `visits.${i}`;
      if (kind === 'relative') {
        if (v.offset === null || v.offset === undefined)
          issues.push({ path: `${at}.offset`, message: M.offsetRequired });
        if (!v.offsetUnit) issues.push({ path: `${at}.offsetUnit`, message: M.unitRequired });
      } else if (!v.fixedDate) issues.push({ path: `${at}.fixedDate`, message: M.fixedDateRequired });
      const seen = names.get(v.name);
      if (seen !== undefined) issues.push({ path: `${at}.name`, message: `访视名称重复：${v.name}` });
      else names.set(v.name, i);
      if (v.id) {
        if (ids.has(v.id.toLowerCase())) issues.push({ path: `${at}.id`, message: M.visitNotFound });
        ids.add(v.id.toLowerCase());
      }
      v.formKeys.forEach((k, j) => formExists(k, `${at}.formKeys.${j}`));
      return {
        ...(v.id ? { id: v.id.toLowerCase() } : {}),
        name: v.name,
        offset: kind === 'relative' ? (v.offset ?? null) : null,
        offsetUnit: kind === 'relative' ? (v.offsetUnit ?? null) : null,
        fixedDate: kind === 'fixed' ? (v.fixedDate ?? null) : null,
        windowBefore: v.windowBefore,
        windowAfter: v.windowAfter,
        formKeys: [...new Set(v.formKeys)],
        contactMethod: v.contactMethod,
      };
    });
  }

  const rule: PlanRule | null =
    input.assignMode === 'auto' ? (input.rule ?? { subProjectIds: [], field: null }) : (input.rule ?? null);
  if (rule) {
    const subs = rule.subProjectIds ?? [];
    const known = await subProjectsAmong(
      db,
      scope.tenantId,
      scope.rootProjectId,
      subs.filter((s) => isUuid(s)),
    );
    subs.forEach((s, i) => {
      if (!known.has(s)) issues.push({ path: `rule.subProjectIds.${i}`, message: M.subProjectNotFound });
    });
    if (rule.field) {
      fieldOf(rule.field.formKey, rule.field.fieldKey, 'rule.field.fieldKey', '规则字段', false);
      if (rule.field.op === 'eq' && rule.field.values.length === 0)
        issues.push({ path: 'rule.field.values', message: M.ruleValuesRequired });
    }
  }

  const ownerId = input.defaultOwnerId ?? null;
  if (ownerId && !(await isProjectMember(db, scope.tenantId, scope.rootProjectId, ownerId)))
    issues.push({ path: 'defaultOwnerId', message: M.ownerNotMember });

  if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? M.invalid, issues);
  return {
    name: input.name,
    description: input.description ?? null,
    kind,
    anchor,
    period,
    visits,
    assignMode: input.assignMode,
    rule: rule
      ? { subProjectIds: rule.subProjectIds ?? [], ...(rule.field ? { field: rule.field } : { field: null }) }
      : null,
    remindDaysBefore: input.remindDaysBefore,
    defaultOwnerId: ownerId,
  };
}

export const planValues = (spec: PlanSpec) => ({
  name: spec.name,
  description: spec.description,
  kind: spec.kind,
  anchor: spec.anchor,
  period: spec.period,
  assignMode: spec.assignMode,
  rule: spec.rule,
  remindDaysBefore: spec.remindDaysBefore,
  defaultOwnerId: spec.defaultOwnerId,
});

export const visitValues = (tenantId: string, planId: string, v: VisitSpec, seq: number) => ({
  tenantId,
  planId,
  seq,
  name: v.name,
  offset: v.offset,
  offsetUnit: v.offsetUnit,
  fixedDate: v.fixedDate,
  windowBefore: v.windowBefore,
  windowAfter: v.windowAfter,
  formKeys: v.formKeys,
  contactMethod: v.contactMethod,
});

export const syncPlanOf = (row: PlanRow): SyncPlan => ({
  id: row.id,
  tenantId: row.tenantId,
  projectId: row.projectId,
  kind: row.kind,
  status: row.status,
  anchor: row.anchor,
  assignMode: row.assignMode,
  rule: row.rule,
  defaultOwnerId: row.defaultOwnerId,
});
