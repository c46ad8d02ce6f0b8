import { AUDIT_ID_KEYS, auditActionLabel, auditEntityLabel, type AuditEventVO } from '@registry/shared/contracts/audit';
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
export function presentAuditEvent(row: AuditEventRow, names: ReadonlyMap<string, string> = new Map()): AuditEventVO {
  const entityName = names.get(`${row.entityType}:${row.entityId}`) ?? null;
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
    valueNames: valueNamesOf(row, names),
    oldValue: row.oldValue ?? null,
    newValue: row.newValue ?? null,
    reason: row.reason,
    requestId: row.requestId,
    ip: row.ip,
  };
}
