import type { z } from 'zod';
import type {
  AssignmentVO,
  assignmentAddRequest,
  assignmentPageRequest,
  assignmentRemoveRequest,
  PlanAnchor,
  planCreateRequest,
  PlanApplyResponse,
  PlanPeriod,
  PlanRule,
  planStopRequest,
  planUpdateRequest,
  PlanVO,
} from '@registry/shared/contracts/followup';
import { periodicDates, shanghaiDate } from '@registry/shared/followup/schedule';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { createDefinitionCache } from '../../domain/crf/definition-cache';
import { latestVersionIds } from '../../domain/crf/crf-definition.repository';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import { presentAssignment, presentPlan } from './followup-plan.presenter';
import {
  findPlanRow,
  insertPlanRow,
  insertVisitRows,
  isProjectMember,
  listPlanRows,
  lockPlan,
  planCounts,
  planNameTaken,
  planUsage,
  softDeleteVisitRows,
  subProjectsAmong,
  updatePlanRow,
  updateVisitRow,
  visitsOf,
  type PlanRow,
  type SyncPlan,
  type VisitRow,
} from './followup-plan.repository';
import {
  assignmentsOf,
  insertAssignments,
  pageAssignments,
  setAssignmentsStatus,
  stopAllAssignments,
  visiblePatients,
} from './followup-assignment.repository';
import { cancelOpenTasks } from './followup-sync.repository';
import { applyPlanRule, reconcilePlan } from './followup-sync';

export const PLAN_MESSAGES = {
  notFound: '随访计划不存在',
  nameTaken: '随访计划名称已存在',
  stale: '随访计划已被他人修改，请刷新后重试',
  rescheduleRequired: '请选择是否重新安排未完成的随访任务',
  notActive: '随访计划未启用',
  alreadyActive: '随访计划已启用',
  inUse: '随访计划已生成随访任务，不能删除，请停用',
  stopped: '随访计划已停用',
  patientNotFound: '患者不存在',
  invalid: '随访计划有误，请检查后重试',
  anchorRequired: '相对随访计划请选择基准日期',
  visitsRequired: '请至少添加一次访视',
  offsetRequired: '请输入时间间隔',
  unitRequired: '请选择时间单位',
  fixedDateRequired: '请选择随访日期，或按周期生成访视',
  noDefinition: '项目尚未发布数据库，不能按表单字段设置',
  ownerNotMember: '默认负责人须为项目成员',
  subProjectNotFound: '子项目不存在',
  ruleValuesRequired: '请选择规则取值',
  visitNotFound: '访视不存在',
} as const;
const M = PLAN_MESSAGES;

/** Why the tasks of a stopped plan were cancelled. */
export const PLAN_STOPPED_REASON = '随访计划已停用';

type CreateInput = z.output<typeof planCreateRequest>;
type UpdateInput = z.output<typeof planUpdateRequest>;
type StopInput = z.output<typeof planStopRequest>;
type AssignmentPageInput = z.output<typeof assignmentPageRequest>;
type AssignmentAddInput = z.output<typeof assignmentAddRequest>;
type AssignmentRemoveInput = z.output<typeof assignmentRemoveRequest>;
type Issue = { path: string; message: string };

/** A visit as it will be stored (`id` set: an existing visit kept). */
type VisitSpec = {
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
type PlanSpec = {
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
type PublishedForms = { published: boolean; forms: Map<string, FormDefinition> };

const timing = (v: Pick<VisitSpec, 'offset' | 'offsetUnit' | 'fixedDate' | 'windowBefore' | 'windowAfter'>) =>
  JSON.stringify([v.offset, v.offsetUnit, v.fixedDate, v.windowBefore, v.windowAfter]);

export type FollowupPlanService = ReturnType<typeof createFollowupPlanService>;

export function createFollowupPlanService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const definitions = createDefinitionCache();
  const today = () => shanghaiDate(clock.now());
  const hasPii = (scope: ProjectScope) => scope.permissions.includes(PERMISSIONS.patientPii);

  async function publishedForms(ex: Executor, scope: ProjectScope): Promise<PublishedForms> {
    const projectIds = [...new Set([scope.projectId, scope.rootProjectId])];
    const ids = await latestVersionIds(ex, scope.tenantId, projectIds);
    const versions = await definitions.load(ex, scope.tenantId, ids);
    const forms = new Map<string, FormDefinition>();
    for (const id of ids)
      for (const category of versions.get(id)?.definition.categories ?? [])
        for (const form of category.forms) if (!forms.has(form.key)) forms.set(form.key, form);
    return { published: ids.length > 0, forms };
  }

  function anchorLabelOf(anchor: PlanAnchor | null, forms: PublishedForms): string | null {
    if (!anchor) return null;
    if (anchor.type === 'enrol') return '入组日期';
    const form = forms.forms.get(anchor.formKey);
    const field = form?.fields.find((f) => f.key === anchor.fieldKey);
    return `${form?.title ?? anchor.formKey} · ${field?.label ?? anchor.fieldKey}`;
  }

  async function visiblePlan(ex: Executor, scope: ProjectScope, id: string): Promise<PlanRow> {
    const row = isUuid(id) ? await findPlanRow(ex, scope.tenantId, scope.projectId, id) : undefined;
    if (!row) throw new AppError(404, M.notFound);
    return row;
  }

  async function present(ex: Executor, scope: ProjectScope, rows: PlanRow[]): Promise<PlanVO[]> {
    const ids = rows.map((r) => r.id);
    const [visits, counts, forms] = await Promise.all([
      visitsOf(ex, ids),
      planCounts(ex, ids, today()),
      publishedForms(ex, scope),
    ]);
    return rows.map((row) =>
      presentPlan(
        row,
        visits.filter((v) => v.planId === row.id),
        counts.get(row.id),
        anchorLabelOf(row.anchor, forms),
      ),
    );
  }

  /**
   * Checks a plan against its kind, the published definition, the project's sub-projects and members: 400 with
   * every issue at its path (`visits.2.offset`, `anchor.fieldKey`, ...). Fixed periodic plans get their visits here.
   */
  async function check(scope: ProjectScope, input: CreateInput): Promise<PlanSpec> {
    const issues: Issue[] = [];
    const forms = await publishedForms(db, scope);
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
      else if (anchor.type === 'field')
        fieldOf(anchor.formKey, anchor.fieldKey, 'anchor.fieldKey', '基准日期字段', true);
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

  const planValues = (spec: PlanSpec) => ({
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

  const visitValues = (tenantId: string, planId: string, v: VisitSpec, seq: number) => ({
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

  const syncPlanOf = (row: PlanRow): SyncPlan => ({
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

  /** The rule over every patient of the plan's project (auto plans), then the tasks of all its assignments. */
  async function run(
    tx: Executor,
    scope: ProjectScope,
    row: PlanRow,
    at: Date,
  ): Promise<{ result: PlanApplyResponse; audited: Record<string, number> }> {
    const r = await applyPlanRule(tx, syncPlanOf(row), { userId: scope.userId, at });
    const result = {
      assigned: r.assigned,
      tasksCreated: r.tasksCreated,
      waitingForAnchor: r.waitingForAnchor,
      stopped: r.stopped,
    };
    return {
      result,
      audited: { ...result, tasksCancelled: r.tasksCancelledByRule, tasksReopened: r.tasksReopened },
    };
  }

  async function nameFree(scope: ProjectScope, name: string, exceptId?: string) {
    if (await planNameTaken(db, scope.projectId, name, exceptId))
      throw new AppError(409, M.nameTaken, [{ path: 'name', message: M.nameTaken }]);
  }

  /** A concurrent create or rename took the name first (the unique index). */
  async function onNameClash<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (code === '23505') throw new AppError(409, M.nameTaken, [{ path: 'name', message: M.nameTaken }]);
      throw err;
    }
  }

  return {
    async list(auth: AuthContext): Promise<PlanVO[]> {
      const scope = await requireProjectScope(db, auth);
      return present(db, scope, await listPlanRows(db, scope.tenantId, scope.projectId));
    },

    async detail(auth: AuthContext, id: string): Promise<PlanVO> {
      const scope = await requireProjectScope(db, auth);
      const [vo] = await present(db, scope, [await visiblePlan(db, scope, id)]);
      if (!vo) throw new AppError(404, M.notFound);
      return vo;
    },

    async create(auth: AuthContext, input: CreateInput, ctx: AuditContext): Promise<PlanVO> {
      const scope = await requireProjectScope(db, auth);
      const spec = await check(scope, input);
      await nameFree(scope, spec.name);
      const now = clock.now();
      const id = await onNameClash(() =>
        db.transaction(async (tx) => {
          const planId = await insertPlanRow(tx, {
            tenantId: scope.tenantId,
            projectId: scope.projectId,
            ...planValues(spec),
            status: 'draft',
            createdBy: scope.userId,
            createdAt: now,
            updatedBy: scope.userId,
            updatedAt: now,
          });
          await insertVisitRows(
            tx,
            spec.visits.map((v, i) => visitValues(scope.tenantId, planId, v, i + 1)),
          );
          await audit(
            tx,
            ctx,
            {
              action: 'followup_plan.create',
              entityType: 'followup_plan',
              entityId: planId,
              newValue: { projectId: scope.projectId, ...planValues(spec), visits: spec.visits },
            },
            now,
          );
          return planId;
        }),
      );
      return this.detail(auth, id);
    },

    async update(auth: AuthContext, input: UpdateInput, ctx: AuditContext): Promise<PlanVO> {
      const scope = await requireProjectScope(db, auth);
      const before = await visiblePlan(db, scope, input.id);
      if (before.rowVersion !== input.rowVersion) throw new AppError(409, M.stale);
      const spec = await check(scope, input);
      await nameFree(scope, spec.name, before.id);
      const oldVisits = await visitsOf(db, [before.id]);
      const byId = new Map(oldVisits.map((v) => [v.id, v]));
      // A periodic plan's generated visits keep the ids of the visits at their position.
      if (spec.period) spec.visits.forEach((v, k) => (v.id = oldVisits[k]?.id));
      const issues = spec.visits.flatMap((v, i) =>
        v.id && !byId.has(v.id) ? [{ path: `visits.${i}.id`, message: M.visitNotFound }] : [],
      );
      if (issues.length > 0) throw new AppError(400, M.visitNotFound, issues);
      const kept = new Set(spec.visits.flatMap((v) => (v.id ? [v.id] : [])));
      const removed = oldVisits.filter((v) => !kept.has(v.id));
      const added = spec.visits.filter((v) => !v.id);
      const scheduleChanged =
        before.kind !== spec.kind ||
        JSON.stringify(before.kind === 'relative' ? before.anchor : null) !==
          JSON.stringify(spec.kind === 'relative' ? spec.anchor : null) ||
        removed.length > 0 ||
        added.length > 0 ||
        spec.visits.some((v) => {
          const old = v.id ? byId.get(v.id) : undefined;
          return old !== undefined && timing(old) !== timing(v);
        });
      const usage = await planUsage(db, before.id);
      if (usage.assignments && scheduleChanged && input.reschedule === undefined)
        throw new AppError(400, M.rescheduleRequired, [{ path: 'reschedule', message: M.rescheduleRequired }]);
      const now = clock.now();
      await onNameClash(() =>
        db.transaction(async (tx) => {
          await lockPlan(tx, before.id);
          const updated = await updatePlanRow(tx, before.id, input.rowVersion, {
            ...planValues(spec),
            updatedBy: scope.userId,
            updatedAt: now,
          });
          if (!updated) throw new AppError(409, M.stale);
          await softDeleteVisitRows(
            tx,
            removed.map((v) => v.id),
            now,
          );
          for (const [i, v] of spec.visits.entries())
            if (v.id) await updateVisitRow(tx, v.id, visitValues(scope.tenantId, before.id, v, i + 1));
          await insertVisitRows(
            tx,
            spec.visits.flatMap((v, i) => (v.id ? [] : [visitValues(scope.tenantId, before.id, v, i + 1)])),
          );
          let effect: Awaited<ReturnType<typeof reconcilePlan>> | null = null;
          if (before.status === 'active' && usage.assignments && scheduleChanged) {
            const plan = syncPlanOf({ ...before, ...planValues(spec) } as PlanRow);
            effect = await reconcilePlan(tx, plan, {
              mode: input.reschedule ? 'reschedule' : 'keep',
              userId: scope.userId,
              at: now,
            });
          }
          await audit(
            tx,
            ctx,
            {
              action: 'followup_plan.update',
              entityType: 'followup_plan',
              entityId: before.id,
              oldValue: {
                rowVersion: before.rowVersion,
                name: before.name,
                kind: before.kind,
                anchor: before.anchor,
                period: before.period,
                assignMode: before.assignMode,
                rule: before.rule,
                visits: oldVisits.map((v) => ({ id: v.id, name: v.name, timing: timing(v) })),
              },
              newValue: {
                rowVersion: updated.rowVersion,
                ...planValues(spec),
                visits: spec.visits.map((v) => ({ id: v.id ?? null, name: v.name, timing: timing(v) })),
                scheduleChanged,
                reschedule: input.reschedule ?? null,
                ...(effect ?? {}),
              },
            },
            now,
          );
        }),
      );
      return this.detail(auth, before.id);
    },

    async activate(auth: AuthContext, id: string, ctx: AuditContext): Promise<PlanApplyResponse> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, id);
        if (row.status === 'active') throw new AppError(409, M.alreadyActive);
        if ((await visitsOf(tx, [row.id])).length === 0) throw new AppError(400, M.visitsRequired);
        await updatePlanRow(tx, row.id, null, { status: 'active', updatedBy: scope.userId, updatedAt: now });
        const { result, audited } = await run(tx, scope, { ...row, status: 'active' }, now);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_plan.activate',
            entityType: 'followup_plan',
            entityId: row.id,
            oldValue: { status: row.status },
            newValue: { status: 'active', ...audited },
          },
          now,
        );
        return result;
      });
    },

    async apply(auth: AuthContext, id: string, ctx: AuditContext): Promise<PlanApplyResponse> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, id);
        if (row.status !== 'active') throw new AppError(409, M.notActive);
        const { result, audited } = await run(tx, scope, row, now);
        await audit(
          tx,
          ctx,
          { action: 'followup_plan.apply', entityType: 'followup_plan', entityId: row.id, newValue: audited },
          now,
        );
        return result;
      });
    },

    async stop(auth: AuthContext, input: StopInput, ctx: AuditContext): Promise<{ count: number }> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, input.id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, input.id);
        if (row.status !== 'active') throw new AppError(409, M.notActive);
        await updatePlanRow(tx, row.id, null, { status: 'stopped', updatedBy: scope.userId, updatedAt: now });
        const cancelled = input.cancelOpenTasks
          ? (await cancelOpenTasks(tx, { planId: row.id }, PLAN_STOPPED_REASON, { userId: scope.userId, at: now }))
              .length
          : 0;
        await audit(
          tx,
          ctx,
          {
            action: 'followup_plan.stop',
            entityType: 'followup_plan',
            entityId: row.id,
            oldValue: { status: row.status },
            newValue: { status: 'stopped', cancelOpenTasks: input.cancelOpenTasks, tasksCancelled: cancelled },
          },
          now,
        );
        return { count: cancelled };
      });
    },

    async remove(auth: AuthContext, id: string, ctx: AuditContext): Promise<{ count: number }> {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, id);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, id);
        const usage = await planUsage(tx, row.id);
        // a draft never generated a task; any other plan only while it has none
        if (usage.tasks) throw new AppError(409, M.inUse);
        await updatePlanRow(tx, row.id, null, { deletedAt: now, updatedBy: scope.userId, updatedAt: now });
        await stopAllAssignments(tx, row.id, '随访计划已删除', now);
        await audit(
          tx,
          ctx,
          {
            action: 'followup_plan.delete',
            entityType: 'followup_plan',
            entityId: row.id,
            oldValue: { name: row.name, status: row.status },
            newValue: { deleted: true },
          },
          now,
        );
        return { count: 1 };
      });
    },

    async assignmentPage(auth: AuthContext, q: AssignmentPageInput) {
      const scope = await requireProjectScope(db, auth);
      const plan = await visiblePlan(db, scope, q.planId);
      const pii = hasPii(scope);
      const { records, total } = await pageAssignments(db, scope, plan.id, {
        keyword: q.keyword || undefined,
        piiSearch: pii,
        current: q.current,
        size: q.size,
      });
      return {
        records: records.map((r): AssignmentVO => presentAssignment(r, pii)),
        total,
        current: q.current,
        size: q.size,
      };
    },

    async assignmentAdd(auth: AuthContext, input: AssignmentAddInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      const ids = [...new Set(input.patientIds.map((x) => x.toLowerCase()))];
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, input.planId);
        await lockPlan(tx, found.id);
        const row = await visiblePlan(tx, scope, input.planId);
        if (row.status !== 'active') throw new AppError(409, M.notActive);
        const people = await visiblePatients(tx, scope, ids);
        // All or nothing: a patient outside the scope answers like a missing one.
        if (people.length !== ids.length) throw new AppError(404, M.patientNotFound);
        const outside = people.filter((p) => row.projectId !== scope.rootProjectId && p.subProjectId !== row.projectId);
        if (outside.length > 0) throw new AppError(404, M.patientNotFound);
        const existing = new Map((await assignmentsOf(tx, row.id, ids)).map((a) => [a.patientId, a]));
        const followable = people.filter((p) => p.status !== 'deceased' && p.lostAt === null);
        const resume = followable.flatMap((p) => {
          const a = existing.get(p.id);
          return a && a.status === 'stopped' ? [a.id] : [];
        });
        const fresh = followable.filter((p) => !existing.has(p.id));
        await setAssignmentsStatus(tx, resume, { status: 'active', stoppedReason: null, at: now });
        await insertAssignments(
          tx,
          fresh.map((p) => ({
            tenantId: scope.tenantId,
            projectId: row.projectId,
            planId: row.id,
            patientId: p.id,
            source: 'manual' as const,
            status: 'active' as const,
            createdBy: scope.userId,
            createdAt: now,
            updatedAt: now,
          })),
        );
        const touched = [
          ...fresh.map((p) => p.id),
          ...followable.filter((p) => existing.get(p.id)?.status === 'stopped').map((p) => p.id),
        ];
        const r = await reconcilePlan(tx, syncPlanOf(row), {
          mode: 'anchor',
          patientIds: touched,
          userId: scope.userId,
          at: now,
        });
        const result = {
          assigned: touched.length,
          tasksCreated: r.tasksCreated,
          waitingForAnchor: r.waitingForAnchor,
          stopped: 0,
          skipped: ids.length - touched.length,
        };
        await audit(
          tx,
          ctx,
          {
            action: 'followup_assignment.add',
            entityType: 'followup_plan',
            entityId: row.id,
            newValue: { projectId: row.projectId, patientIds: touched, ...result },
          },
          now,
        );
        return result;
      });
    },

    async assignmentRemove(auth: AuthContext, input: AssignmentRemoveInput, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      const now = clock.now();
      const ids = [...new Set(input.patientIds.map((x) => x.toLowerCase()))];
      return db.transaction(async (tx) => {
        const found = await visiblePlan(tx, scope, input.planId);
        await lockPlan(tx, found.id);
        const people = await visiblePatients(tx, scope, ids);
        if (people.length !== ids.length) throw new AppError(404, M.patientNotFound);
        const active = (await assignmentsOf(tx, found.id, ids)).filter((a) => a.status === 'active');
        await setAssignmentsStatus(
          tx,
          active.map((a) => a.id),
          { status: 'stopped', stoppedReason: input.reason, at: now },
        );
        const patientIds = active.map((a) => a.patientId);
        const cancelled =
          patientIds.length > 0
            ? (
                await cancelOpenTasks(tx, { planId: found.id, patientIds }, input.reason, {
                  userId: scope.userId,
                  at: now,
                })
              ).length
            : 0;
        await audit(
          tx,
          ctx,
          {
            action: 'followup_assignment.remove',
            entityType: 'followup_plan',
            entityId: found.id,
            newValue: { projectId: found.projectId, patientIds, tasksCancelled: cancelled },
            reason: input.reason,
          },
          now,
        );
        return { count: patientIds.length };
      });
    },
  };
}
