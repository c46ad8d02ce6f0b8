import { auditActionLabel, auditEntityLabel, type AuditEventVO } from '@registry/shared/contracts/audit';
import type { AuditEventRow } from './audit.repository';

/** An audit row as the viewer shows it: whitelisted fields, Chinese labels, the actor's name when known. */
export function presentAuditEvent(row: AuditEventRow, entityName: string | null = null): AuditEventVO {
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
    oldValue: row.oldValue ?? null,
    newValue: row.newValue ?? null,
    reason: row.reason,
    requestId: row.requestId,
    ip: row.ip,
  };
}
