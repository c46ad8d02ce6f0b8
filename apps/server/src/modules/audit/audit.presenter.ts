import { AUDIT_ID_KEYS, auditActionLabel, auditEntityLabel, type AuditEventVO } from '@registry/shared/contracts/audit';
import type { Definition } from '@registry/shared/forms/definition';
import { findForm } from '@registry/shared/forms/walk';
import type { AuditEventRow } from './audit.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids named in an event's old and new values (at any depth), with the entity type their key stands for. */
export function idRefsOf(
  row: Pick<AuditEventRow, 'oldValue' | 'newValue'>,
): { entityType: string; entityId: string }[] {
  const out: { entityType: string; entityId: string }[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 4 || typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const type = AUDIT_ID_KEYS[key];
      if (type && typeof inner === 'string' && UUID.test(inner)) out.push({ entityType: type, entityId: inner });
      else walk(inner, depth + 1);
    }
  };
  walk(row.oldValue, 0);
  walk(row.newValue, 0);
  return out;
}

type FormValues = { formKey?: unknown; versionId?: unknown; values?: unknown };
const asFormValues = (value: unknown): FormValues =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as FormValues) : {};

/** The form versions an event's values name next to a form key (a form record's create, update, migration …). */
export function formVersionIdsOf(row: Pick<AuditEventRow, 'oldValue' | 'newValue'>): string[] {
  return [row.oldValue, row.newValue]
    .map(asFormValues)
    .filter((v) => typeof v.formKey === 'string' && typeof v.versionId === 'string')
    .map((v) => v.versionId as string);
}

/**
 * The form's title (by its key) and the titles of the fields whose keys the event's `values` hold (`weight`, a group
 * cell `meds.2.dose` by `meds` and `dose`), read from the definition version each side names.
 */
function formLabelsOf(
  row: AuditEventRow,
  definitions: ReadonlyMap<string, Definition>,
): { formTitles: Record<string, string>; fieldLabels: Record<string, string> } {
  const formTitles: Record<string, string> = {};
  const fieldLabels: Record<string, string> = {};
  for (const side of [row.oldValue, row.newValue].map(asFormValues)) {
    if (typeof side.formKey !== 'string' || typeof side.versionId !== 'string') continue;
    const definition = definitions.get(side.versionId);
    const form = definition ? findForm(definition, side.formKey) : undefined;
    if (!form) continue;
    formTitles[side.formKey] = form.title;
    const values = asFormValues(side.values) as Record<string, unknown>;
    for (const path of Object.keys(values)) {
      const [key, , column] = path.split('.');
      const field = form.fields.find((f) => f.key === key);
      if (!field) continue;
      fieldLabels[field.key] = field.label;
      const cell = column !== undefined ? field.fields?.find((c) => c.key === column) : undefined;
      if (cell) fieldLabels[cell.key] ??= cell.label;
    }
  }
  return { formTitles, fieldLabels };
}

/** The names of the ids in an event's values, from the names found for the page (`type:id` → name). */
function valueNamesOf(row: AuditEventRow, names: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const ref of idRefsOf(row)) {
    const name = names.get(`${ref.entityType}:${ref.entityId}`);
    if (name !== undefined) out[ref.entityId] = name;
  }
  return out;
}

/** An audit row as the viewer shows it: whitelisted fields, Chinese labels, the actor's name when known. */
export function presentAuditEvent(
  row: AuditEventRow,
  names: ReadonlyMap<string, string> = new Map(),
  definitions: ReadonlyMap<string, Definition> = new Map(),
): AuditEventVO {
  const entityName = names.get(`${row.entityType}:${row.entityId}`) ?? null;
  const { formTitles, fieldLabels } = formLabelsOf(row, definitions);
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor:
      row.actorId && row.actorName !== null && row.actorUsername !== null
        ? { id: row.actorId, name: row.actorName, username: row.actorUsername }
        : null,
    action: row.action,
    actionLabel: auditActionLabel(row.action),
    entityType: row.entityType,
    entityLabel: auditEntityLabel(row.entityType),
    entityId: row.entityId,
    entityName,
    valueNames: { ...formTitles, ...valueNamesOf(row, names) },
    fieldLabels,
    oldValue: row.oldValue ?? null,
    newValue: row.newValue ?? null,
    reason: row.reason,
    requestId: row.requestId,
    ip: row.ip,
  };
}
