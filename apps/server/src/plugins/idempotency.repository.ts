import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { idempotencyKeys } from '../db/schema';

export type Claim = {
  userId: string;
  tenantId: string;
  key: string;
  method: string;
  route: string;
  requestHash: string;
};

/**
 * Takes the key: a new row, or an existing one that expired or whose run was abandoned (its lease passed, same
 * request). One statement, so two requests with one key at the same moment cannot both take it. True when taken.
 */
export async function claimKey(
  db: Executor,
  claim: Claim,
  now: Date,
  lockedUntil: Date,
  expiresAt: Date,
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ ...claim, createdAt: now, lockedUntil, expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: {
        tenantId: claim.tenantId,
        method: claim.method,
        route: claim.route,
        requestHash: claim.requestHash,
        statusCode: null,
        contentType: null,
        response: null,
        createdAt: now,
        lockedUntil,
        expiresAt,
      },
      setWhere: or(
        lt(idempotencyKeys.expiresAt, now),
        and(
          isNull(idempotencyKeys.statusCode),
          lt(idempotencyKeys.lockedUntil, now),
          eq(idempotencyKeys.requestHash, claim.requestHash),
        ),
      ),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

export async function findKey(db: Executor, userId: string, key: string) {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      statusCode: idempotencyKeys.statusCode,
      contentType: idempotencyKeys.contentType,
      response: idempotencyKeys.response,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row;
}

/** The key's row while its request still runs (no answer stored yet). */
const stillRunning = (userId: string, key: string) =>
  and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), isNull(idempotencyKeys.statusCode));

/** Deletes expired keys; answers how many. */
export async function purgeExpiredIdempotencyKeys(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

/** Stores the answer of the request holding the key (only while it still runs). */
export async function storeAnswer(
  db: Executor,
  userId: string,
  key: string,
  answer: { statusCode: number; contentType: string | null; response: string; expiresAt: Date },
): Promise<void> {
  await db.update(idempotencyKeys).set(answer).where(stillRunning(userId, key));
}

/** Releases the key of a request still running (its answer is not stored; a repeat runs again). */
export async function releaseKey(db: Executor, userId: string, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(stillRunning(userId, key));
}
