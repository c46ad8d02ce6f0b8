import { shanghaiDate } from '@registry/shared/followup/schedule';
import type {
  DefinitionChange,
  DefinitionProblem,
  DraftResponse,
  DraftSaveRequest,
  PublishedResponse,
  PublishedVersion,
  PublishPreviewResponse,
  PublishRequest,
  RecordCheckRequest,
  RecordCheckResponse,
  VersionDetailResponse,
  VersionSummary,
} from '@registry/shared/contracts/form-definition';
import { checkDefinition } from '@registry/shared/forms/check';
import { EMPTY_DEFINITION, type Definition, type FormDefinition } from '@registry/shared/forms/definition';
import { diffDefinitions } from '@registry/shared/forms/diff';
import { validateRecord } from '@registry/shared/forms/record';
import { findForm, listFields, listFormFields, listForms } from '@registry/shared/forms/walk';
import type { Db, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { isUuid, requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import {
  childLatestVersions,
  countRecordsWithData,
  insertVersion,
  updateDraft,
  type DataProbe,
} from './database.repository';
import {
  availableDictCodes,
  dictOptionKey,
  existingDictOptions,
  latestVersion,
  loadDraft,
  loadVersion,
  listVersions,
  projectInfo,
  type DraftRow,
  type VersionRow,
} from '../../domain/crf/crf-definition.repository';
import {
  definitionCounts,
  presentDraft,
  presentPublished,
  presentVersionDetail,
  presentVersionSummary,
} from './database.presenter';

export const DATABASE_MESSAGES = {
  stale: '数据库已被他人修改，请刷新后重试',
  hasProblems: '数据库存在错误，无法发布',
  nothingToPublish: '没有需要发布的修改',
  confirmDataLoss: '本次发布会影响已录入的数据，请确认后再发布',
  versionNotFound: '版本不存在',
  formNotFound: '表单不存在',
  frozen: '项目已锁定或归档，数据库不能修改',
} as const;
const M = DATABASE_MESSAGES;

/** The options of a removed-or-changed option list that are gone in `after`. */
function removedCodes(change: DefinitionChange): string[] | undefined {
  const codesOf = (v: unknown): string[] | undefined =>
    Array.isArray(v)
      ? v.flatMap((o) =>
          typeof o === 'string'
            ? [o]
            : o && typeof o === 'object' && typeof (o as { code?: unknown }).code === 'string'
              ? [(o as { code: string }).code]
              : [],
        )
      : undefined;
  const before = codesOf(change.before);
  const after = codesOf(change.after);
  if (!before || !after) return undefined;
  const kept = new Set(after);
  return before.filter((c) => !kept.has(c));
}

/** The data a breaking change would orphan, as a query probe (undefined when it touches no stored data). */
export function probeOf(change: DefinitionChange): DataProbe | undefined {
  if (!change.breaking || !change.formKey) return undefined;
  if (change.entity === 'form') return { formKey: change.formKey };
  if (change.entity !== 'field' || !change.fieldKey) return undefined;
  // a field moved to another form: its data stay on the records of the form it left
  if (change.kind === 'moved' && change.property === 'form' && typeof change.before === 'string')
    return { formKey: change.before, fieldKey: change.fieldKey };
  if (change.kind === 'changed' && change.property === 'options') {
    const codes = removedCodes(change);
    if (codes && codes.length === 0) return undefined;
    return codes
      ? { formKey: change.formKey, fieldKey: change.fieldKey, codes }
      : { formKey: change.formKey, fieldKey: change.fieldKey };
  }
  return { formKey: change.formKey, fieldKey: change.fieldKey };
}

/**
 * A parent's form and field keys must stay clear of its sub-projects' published ones (a sub-project's data share the
 * parent's key space): each clash is a problem at the parent's key.
 */
export function keysTakenByChildren(
  definition: Definition,
  children: readonly { projectName: string; version: { definition: Definition } }[],
): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  for (const child of children) {
    const forms = new Map(listForms(child.version.definition).map((e) => [e.form.key, e.form]));
    const fields = new Map(listFields(child.version.definition).map((e) => [e.field.key, e]));
    for (const entry of listForms(definition)) {
      const form = forms.get(entry.form.key);
      if (form)
        problems.push({
          path: `${entry.path}.key`,
          formKey: entry.form.key,
          fieldKey: null,
          message: `表单编码 ${entry.form.key} 已被子项目「${child.projectName}」的表单「${form.title}」使用`,
          position: null,
        });
      for (const item of listFormFields(entry.form, entry.path)) {
        const taken = fields.get(item.field.key);
        if (taken)
          problems.push({
            path: `${item.path}.key`,
            formKey: entry.form.key,
            fieldKey: item.field.key,
            message: `变量名 ${item.field.key} 已被子项目「${child.projectName}」的表单「${taken.form.title}」的字段「${taken.field.label}」使用`,
            position: null,
          });
      }
    }
  }
  return problems;
}

export type DatabaseService = ReturnType<typeof createDatabaseService>;

export function createDatabaseService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** A sub-project's parent: its name and latest published version (null before its first publish). */
  async function parentOf(ex: Executor, scope: ProjectScope) {
    const info = await projectInfo(ex, scope);
    if (!info.parentId) return null;
    const version = await latestVersion(ex, { tenantId: scope.tenantId, projectId: info.parentId });
    return { projectId: info.parentId, projectName: info.parentName ?? '', version: version ?? null };
  }

  /** A locked or archived project keeps its database as it is: no save, publish or discard. */
  async function requireEditable(ex: Executor, scope: ProjectScope) {
    const info = await projectInfo(ex, scope);
    if (info.status === 'locked' || info.status === 'archived') throw new AppError(409, M.frozen);
  }

  async function problemsOf(ex: Executor, scope: ProjectScope, definition: Definition, parent?: Definition) {
    const dictCodes = await availableDictCodes(ex, scope.tenantId);
    return [
      ...checkDefinition(definition, { ...(parent ? { parent } : {}), dictCodes }),
      ...keysTakenByChildren(definition, await childLatestVersions(ex, scope)),
    ];
  }

  const changesSince = (latest: VersionRow | undefined, definition: Definition) =>
    diffDefinitions(latest?.definition ?? null, definition);

  /** The breaking changes that would orphan entered data, with the number of records concerned. */
  async function dataLossOf(ex: Executor, scope: ProjectScope, changes: DefinitionChange[]) {
    const out: { change: DefinitionChange; recordCount: number }[] = [];
    for (const change of changes) {
      const probe = probeOf(change);
      if (!probe) continue;
      const recordCount = await countRecordsWithData(ex, scope, probe);
      if (recordCount > 0) out.push({ change, recordCount });
    }
    return out;
  }

  const toIssues = (problems: DefinitionProblem[]) => problems.map((p) => ({ path: p.path, message: p.message }));

  function requireRevision(draft: DraftRow, revision: number) {
    if (draft.revision !== revision) throw new AppError(409, M.stale);
  }

  async function visibleVersion(scope: ProjectScope, id: string, withParent: boolean): Promise<VersionRow> {
    const parentId = withParent ? (await projectInfo(db, scope)).parentId : null;
    const row = isUuid(id) ? await loadVersion(db, scope, id, { parentId }) : undefined;
    if (!row) throw new AppError(404, M.versionNotFound);
    return row;
  }

  /** What publishing the draft would do; shared by the preview and the publish itself (inside its transaction). */
  async function prepare(ex: Executor, scope: ProjectScope, draft: DraftRow) {
    const parent = await parentOf(ex, scope);
    const problems = await problemsOf(ex, scope, draft.definition, parent?.version?.definition);
    const latest = await latestVersion(ex, scope);
    const changes = changesSince(latest, draft.definition);
    const dataLoss = await dataLossOf(ex, scope, changes);
    return { problems, latest, changes, dataLoss };
  }

  return {
    async getDraft(auth: AuthContext): Promise<DraftResponse> {
      const scope = await requireProjectScope(db, auth);
      const draft = await loadDraft(db, scope);
      const parent = await parentOf(db, scope);
      const latest = await latestVersion(db, scope);
      return presentDraft(draft, {
        problems: await problemsOf(db, scope, draft.definition, parent?.version?.definition),
        unpublishedChanges: changesSince(latest, draft.definition).length > 0,
        latestVersion: latest ? presentVersionSummary(latest) : null,
        parent: parent
          ? {
              projectName: parent.projectName,
              versionNo: parent.version?.versionNo ?? null,
              definition: parent.version?.definition ?? EMPTY_DEFINITION,
            }
          : null,
      });
    },

    async saveDraft(auth: AuthContext, input: DraftSaveRequest, ctx: AuditContext) {
      const scope = await requireProjectScope(db, auth);
      await requireEditable(db, scope);
      const before = await loadDraft(db, scope);
      requireRevision(before, input.revision);
      const now = clock.now();
      const revision = await db.transaction(async (tx) => {
        const next = await updateDraft(tx, scope, input.revision, {
          definition: input.definition,
          updatedBy: scope.userId,
          updatedAt: now,
        });
        if (next === undefined) throw new AppError(409, M.stale);
        await audit(
          tx,
          ctx,
          {
            action: 'form_definition.save',
            entityType: 'form_draft',
            entityId: scope.projectId,
            oldValue: { projectId: scope.projectId, revision: before.revision, ...definitionCounts(before.definition) },
            newValue: { projectId: scope.projectId, revision: next, ...definitionCounts(input.definition) },
          },
          now,
        );
        return next;
      });
      const parent = await parentOf(db, scope);
      const latest = await latestVersion(db, scope);
      return {
        revision,
        problems: await problemsOf(db, scope, input.definition, parent?.version?.definition),
        unpublishedChanges: changesSince(latest, input.definition).length > 0,
      };
    },

    async publishPreview(auth: AuthContext): Promise<PublishPreviewResponse> {
      const scope = await requireProjectScope(db, auth);
      const draft = await loadDraft(db, scope);
      const { problems, latest, changes, dataLoss } = await prepare(db, scope, draft);
      return {
        revision: draft.revision,
        nextVersionNo: (latest?.versionNo ?? 0) + 1,
        changes,
        dataLoss,
        problems,
      };
    },

    async publish(auth: AuthContext, input: PublishRequest, ctx: AuditContext): Promise<VersionSummary> {
      const scope = await requireProjectScope(db, auth);
      await requireEditable(db, scope);
      await loadDraft(db, scope); // created outside the transaction that locks it
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const draft = await loadDraft(tx, scope, { forUpdate: true });
        requireRevision(draft, input.revision);
        const { problems, latest, changes, dataLoss } = await prepare(tx, scope, draft);
        if (problems.length > 0) throw new AppError(400, M.hasProblems, toIssues(problems));
        if (changes.length === 0) throw new AppError(400, M.nothingToPublish);
        if (dataLoss.length > 0 && input.confirmDataLoss !== true) throw new AppError(409, M.confirmDataLoss);
        const versionNo = (latest?.versionNo ?? 0) + 1;
        const versionId = await insertVersion(tx, {
          tenantId: scope.tenantId,
          projectId: scope.projectId,
          versionNo,
          definition: draft.definition,
          changes,
          note: input.note ? input.note : null,
          publishedBy: scope.userId,
          publishedAt: now,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'form_definition.publish',
            entityType: 'form_version',
            entityId: versionId,
            newValue: {
              projectId: scope.projectId,
              versionNo,
              revision: draft.revision,
              changeCount: changes.length,
              breakingCount: changes.filter((c) => c.breaking).length,
              note: input.note ? input.note : null,
              confirmedDataLoss: dataLoss.map((d) => ({ summary: d.change.summary, recordCount: d.recordCount })),
              ...definitionCounts(draft.definition),
            },
          },
          now,
        );
        return versionId;
      });
      return presentVersionSummary(await visibleVersion(scope, id, false));
    },

    async versions(auth: AuthContext): Promise<VersionSummary[]> {
      const scope = await requireProjectScope(db, auth);
      return (await listVersions(db, scope)).map(presentVersionSummary);
    },

    async version(auth: AuthContext, id: string): Promise<VersionDetailResponse> {
      const scope = await requireProjectScope(db, auth);
      return presentVersionDetail(await visibleVersion(scope, id, false));
    },

    async discardDraft(auth: AuthContext, revision: number, ctx: AuditContext): Promise<DraftResponse> {
      const scope = await requireProjectScope(db, auth);
      await requireEditable(db, scope);
      const before = await loadDraft(db, scope);
      requireRevision(before, revision);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const latest = await latestVersion(tx, scope);
        const definition = latest?.definition ?? EMPTY_DEFINITION;
        const next = await updateDraft(tx, scope, revision, { definition, updatedBy: scope.userId, updatedAt: now });
        if (next === undefined) throw new AppError(409, M.stale);
        await audit(
          tx,
          ctx,
          {
            action: 'form_definition.discard',
            entityType: 'form_draft',
            entityId: scope.projectId,
            oldValue: { projectId: scope.projectId, revision: before.revision, ...definitionCounts(before.definition) },
            newValue: {
              projectId: scope.projectId,
              revision: next,
              versionNo: latest?.versionNo ?? null,
              ...definitionCounts(definition),
            },
          },
          now,
        );
      });
      return this.getDraft(auth);
    },

    async published(auth: AuthContext): Promise<PublishedResponse> {
      const scope = await requireProjectScope(db, auth);
      const parent = await parentOf(db, scope);
      return {
        own: presentPublished(await latestVersion(db, scope)),
        parent: presentPublished(parent?.version ?? undefined),
      };
    },

    /** A published version of the project or its parent (the definition an older record was entered with). */
    async publishedVersion(auth: AuthContext, id: string): Promise<PublishedVersion> {
      const scope = await requireProjectScope(db, auth);
      const published = presentPublished(await visibleVersion(scope, id, true));
      if (!published) throw new AppError(404, M.versionNotFound);
      return published;
    },

    async checkRecord(auth: AuthContext, input: RecordCheckRequest): Promise<RecordCheckResponse> {
      const scope = await requireProjectScope(db, auth);
      const version = await visibleVersion(scope, input.versionId, true);
      const form = findForm(version.definition, input.formKey);
      if (!form) throw new AppError(404, M.formNotFound);
      const known = await existingDictOptions(db, scope.tenantId, dictValuesOf(form, input.data));
      const result = validateRecord(form, input.data, {
        mode: input.mode,
        missingCodes: version.definition.missingCodes.map((m) => m.code),
        today: shanghaiDate(clock.now()),
        dictionaryHas: (dictCode: string, code: string) => known.has(dictOptionKey(dictCode, code)),
      });
      return { valid: result.valid, issues: result.issues, data: result.data };
    },
  };
}

/** The (dictionary, code) pairs a record's data names in the form's dict fields, group rows included. */
export function dictValuesOf(
  form: FormDefinition,
  data: Readonly<Record<string, unknown>>,
): { dictCode: string; code: string }[] {
  const out: { dictCode: string; code: string }[] = [];
  const take = (dictCode: string | undefined, value: unknown) => {
    if (!dictCode) return;
    if (typeof value === 'string' && value !== '') out.push({ dictCode, code: value });
    else if (Array.isArray(value))
      for (const v of value) if (typeof v === 'string' && v !== '') out.push({ dictCode, code: v });
  };
  for (const field of form.fields) {
    if (field.type === 'dict') take(field.dictCode, data[field.key]);
    if (field.type === 'group') {
      const rows = data[field.key];
      if (!Array.isArray(rows)) continue;
      for (const column of field.fields ?? []) {
        if (column.type !== 'dict') continue;
        for (const row of rows)
          if (row && typeof row === 'object') take(column.dictCode, (row as Record<string, unknown>)[column.key]);
      }
    }
  }
  return out;
}
