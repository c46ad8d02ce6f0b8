import type { TaskFormVO } from '@registry/shared/contracts/followup';
import type { FormDefinition } from '@registry/shared/forms/definition';
import type { Executor } from '../../db/client';
import type { DefinitionCache, PublishedVersion } from '../../domain/crf/definition-cache';
import { latestVersionIds } from '../../domain/crf/crf-definition.repository';
import { maskData } from '../patient-record/record-data';
import { taskRecords, type TaskRecordRow } from './followup-record.repository';
import type { TaskDetailRow } from './followup-task.repository';

/** The forms of a task's visit as the patient's published versions define them, and the records they show. */

/** A form of the visit as the patient's published versions define it. */
export type VisitForm = { formKey: string; title: string; form: FormDefinition; version: PublishedVersion };

export const patientProjects = (task: TaskDetailRow) =>
  task.patientSubProjectId ? [task.patientSubProjectId, task.patientProjectId] : [task.patientProjectId];

/** The patient's latest published versions (sub-project first) and the visit's forms found in them. */
export async function visitForms(db: Executor, cache: DefinitionCache, task: TaskDetailRow) {
  const latest = await latestVersionIds(db, task.tenantId, patientProjects(task));
  const versions = await cache.load(db, task.tenantId, latest);
  const forms: VisitForm[] = [];
  for (const formKey of task.visitFormKeys)
    for (const id of latest) {
      const version = versions.get(id);
      const form = version?.forms.get(formKey);
      if (version && form) {
        forms.push({ formKey, title: form.title, form, version });
        break;
      }
    }
  return { latest, versions, forms };
}

/** '入组日期', '<form title> · <field label>', or null without an anchor. */
export function anchorLabel(anchor: unknown, versions: ReadonlyMap<string, PublishedVersion>, latest: string[]) {
  const a = anchor as { type?: string; formKey?: string; fieldKey?: string } | null;
  if (!a?.type) return null;
  if (a.type === 'enrol') return '入组日期';
  for (const id of latest) {
    const form = versions.get(id)?.forms.get(a.formKey ?? '');
    const field = form?.fields.find((f) => f.key === a.fieldKey);
    if (form && field) return `${form.title} · ${'label' in field ? String(field.label) : (a.fieldKey ?? '')}`;
  }
  return `${a.formKey ?? ''} · ${a.fieldKey ?? ''}`;
}

/** The record of each visit form for this task (repeating: the task's instance; others: the patient's one). */
export function recordOf(vf: VisitForm, rows: readonly TaskRecordRow[]): TaskRecordRow | undefined {
  return rows.find((r) => r.formKey === vf.formKey);
}

export async function formsWithRecords(
  db: Executor,
  cache: DefinitionCache,
  task: TaskDetailRow,
  forms: VisitForm[],
  pii: boolean,
): Promise<TaskFormVO[]> {
  const rows = await taskRecords(
    db,
    { tenantId: task.tenantId, patientId: task.patientId, taskId: task.id },
    forms.map((f) => ({ formKey: f.formKey, repeating: f.form.repeating === true })),
  );
  const versions = await cache.load(
    db,
    task.tenantId,
    rows.map((r) => r.versionId),
  );
  return forms.map((vf) => {
    const row = recordOf(vf, rows);
    if (!row) return { formKey: vf.formKey, title: vf.title, record: null };
    const form = versions.get(row.versionId)?.forms.get(row.formKey) ?? vf.form;
    const data = row.data as Record<string, unknown>;
    return {
      formKey: vf.formKey,
      title: vf.title,
      record: {
        id: row.id,
        instance: row.instance,
        versionId: row.versionId,
        status: row.status,
        data: pii ? data : maskData(form, data).data,
        rowVersion: row.rowVersion,
        updatedAt: row.updatedAt.toISOString(),
      },
    };
  });
}
