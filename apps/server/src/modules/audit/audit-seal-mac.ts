import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AuditSealKey } from '../../lib/audit-seal-key';

/**
 * An audit event as the seal covers it: every column but the legacy hash chain, each as the text PostgreSQL gives it
 * (audit-seal.repository.ts reads them so), so the serialisation depends on no JavaScript parsing: `at` as UTC with
 * microseconds, the JSON values as jsonb's own normalised text (keys sorted, exact numbers).
 */
export type SealableEvent = {
  id: string;
  txId: string;
  tenantId: string | null;
  projectId: string | null;
  actorId: string | null;
  /** `YYYY-MM-DDTHH:MI:SS.ffffffZ` */
  at: string;
  action: string;
  entityType: string;
  entityId: string | null;
  /** jsonb text */
  oldValue: string | null;
  /** jsonb text */
  newValue: string | null;
  reason: string | null;
  requestId: string | null;
  ip: string | null;
};

/** The chain of an event: its tenant id, '-' for tenant-less events (failed sign-ins of unknown names). */
export const tenantKeyOf = (tenantId: string | null): string => tenantId ?? '-';

const EVENT_FORMAT = 'audit-event/1';
const SEAL_FORMAT = 'audit-seal/1';

/**
 * The canonical serialisation of an event: a JSON array of strings and nulls in a fixed order behind a format tag.
 * JSON string escaping makes it unambiguous (no field can run into the next); changing it is a new format tag.
 */
export function canonicalEvent(e: SealableEvent): string {
  return JSON.stringify([
    EVENT_FORMAT,
    e.id,
    e.txId,
    e.tenantId,
    e.projectId,
    e.actorId,
    e.at,
    e.action,
    e.entityType,
    e.entityId,
    e.oldValue,
    e.newValue,
    e.reason,
    e.requestId,
    e.ip,
  ]);
}

const hmacHex = (key: AuditSealKey, text: string) => createHmac('sha256', key.key).update(text, 'utf8').digest('hex');

/** The mac of seal `seq` of a chain: over the chain, the position, the previous mac and the event. */
export function sealMac(
  key: AuditSealKey,
  seal: { tenantKey: string; seq: number; prevMac: string | null },
  event: SealableEvent,
): string {
  return hmacHex(
    key,
    JSON.stringify([SEAL_FORMAT, seal.tenantKey, String(seal.seq), seal.prevMac, canonicalEvent(event)]),
  );
}

/** A chain's signed head: the newest seal of the chain, signed when the sealer wrote it. */
export type SealHead = { tenantKey: string; seq: number; mac: string; signedAt: Date; signature: string };

/** The signature of a head: HMAC over `tenant_key|seq|mac|signed_at` (ISO 8601, milliseconds). */
export function headSignature(key: AuditSealKey, head: Omit<SealHead, 'signature'>): string {
  return hmacHex(key, `${head.tenantKey}|${head.seq}|${head.mac}|${head.signedAt.toISOString()}`);
}

/** Whether two hex macs are the same (in constant time). */
export function sameMac(a: string | null | undefined, b: string | null | undefined): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
