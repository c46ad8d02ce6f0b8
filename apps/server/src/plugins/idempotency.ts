import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '@registry/shared/access';
import type { Db, Executor } from '../db/client';
import type { Clock } from '../lib/clock';
import { sha256Hex } from '../lib/crypto';
import { AppError, ERROR_MESSAGES } from '../lib/errors';
import { decryptPhi, encryptPhi, type PhiKeys } from '../lib/phi-crypto';
import type { Job } from '../domain/jobs/interval-job';
import './fastify-types';
import {
  claimKey,
  findKey,
  purgeExpiredIdempotencyKeys,
  releaseKey,
  storeAnswer,
  type Claim,
} from './idempotency.repository';

export { purgeExpiredIdempotencyKeys };

/** How long a stored answer is kept (and a key cannot be reused for another request). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a request still running holds its key; past it (a crashed process), a repeat takes the key over. */
export const IDEMPOTENCY_LEASE_MS = 10 * 60_000;
/** Answers larger than this are not stored (the key is released; a repeat runs again). */
export const IDEMPOTENCY_MAX_STORED_BYTES = 1024 * 1024;
/** Default time a repeat waits for the first request with its key to finish before answering 409. */
const DEFAULT_WAIT_MS = 2000;
const POLL_MS = 50;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Visible ASCII, 1–255 characters (the web sends a UUID). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();

export type IdempotencyOptions = {
  db: Db;
  clock: Clock;
  /** The answer is encrypted like PHI: it may carry a patient's identity number or phone. */
  keys: PhiKeys;
  /** How long a repeat waits for the first request with its key to finish (then 409). */
  waitMs?: number;
};

/** JSON with object keys sorted: the same body, however its keys were ordered, hashes alike. */
function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          )
        : v,
    ) ?? ''
  );
}

/**
 * What a repeat must match: the method, the whole URL (path and query) and the body. A multipart body (an upload, an
 * import) is a stream the handler reads, not known before it runs: it is not part of the hash (ADR 0011).
 */
export function requestHash(request: FastifyRequest): string {
  const body = request.isMultipart()
    ? 'multipart'
    : typeof request.body === 'string' || Buffer.isBuffer(request.body)
      ? `raw:${sha256Hex(request.body)}`
      : `json:${canonicalJson(request.body)}`;
  return sha256Hex(`${request.method}\n${request.url}\n${body}`);
}

/** Takes the key (`claimKey`, one statement) with its lease and expiry from now. True when taken. */
async function takeKey(db: Executor, claim: Claim, now: Date): Promise<boolean> {
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  return claimKey(db, claim, now, lockedUntil, expiresAt);
}

export const IDEMPOTENCY_CLEANUP_JOB = 'idempotency-cleanup';

/** The job queue's hourly job deleting expired keys (an expired key met before is reused anyway). */
export function createIdempotencyCleanupJob(deps: { db: Db; clock: Clock; intervalSeconds?: number }): Job {
  return {
    name: IDEMPOTENCY_CLEANUP_JOB,
    intervalSeconds: deps.intervalSeconds ?? 3600,
    run: async () => {
      await purgeExpiredIdempotencyKeys(deps.db, deps.clock.now());
    },
  };
}

/**
 * Idempotency keys (ADR 0011). A signed-in write request (POST, PUT, PATCH, DELETE) with `Idempotency-Key` runs once
 * per user and key: the first takes the key before its handler (preValidation: after the access hook, with the body
 * parsed), and its answer (status, content type, body) is stored when it is sent (onSend), after the handler's own
 * transaction committed. A repeat with the same key and the same request (method, URL, body) gets that answer again
 * without the handler running (`Idempotent-Replayed: true`); with another request, 422; while the first still runs, it
 * waits up to `waitMs` for the answer, then 409. Not stored: 5xx answers and files or streams (the key is released, so
 * a repeat runs again). Without the header, or on a public route, nothing changes.
 */
export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db, clock, keys } = options;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;

  app.addHook('preValidation', async (request, reply) => {
    if (!WRITE_METHODS.has(request.method) || !request.auth) return;
    const header = request.headers[HEADER];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
      throw new AppError(400, ERROR_MESSAGES.idempotencyKeyInvalid);
    }
    const { userId, tenantId } = request.auth;
    const claim: Claim = {
      userId,
      tenantId,
      key: header,
      method: request.method,
      route: request.routeOptions.url ?? '',
      requestHash: requestHash(request),
    };
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (await takeKey(db, claim, clock.now())) {
        request.idempotency = { userId, key: header };
        return;
      }
      const row = await findKey(db, userId, header);
      if (row && row.requestHash !== claim.requestHash) throw new AppError(422, ERROR_MESSAGES.idempotencyKeyReused);
      if (row && row.statusCode !== null) {
        reply
          .code(row.statusCode)
          .header('content-type', row.contentType ?? 'application/json; charset=utf-8')
          .header(IDEMPOTENT_REPLAY_HEADER, 'true');
        return reply.send(row.response === null ? '' : decryptPhi(keys, row.response));
      }
      // still running (or released meanwhile, the first having answered 5xx: the next claim takes it)
      if (Date.now() >= deadline) throw new AppError(409, ERROR_MESSAGES.idempotencyInProgress);
      if (row) await sleep(POLL_MS);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = undefined;
    const storable =
      reply.statusCode < 500 &&
      typeof payload === 'string' &&
      Buffer.byteLength(payload) <= IDEMPOTENCY_MAX_STORED_BYTES;
    try {
      if (storable) {
        const contentType = reply.getHeader('content-type');
        await storeAnswer(db, held.userId, held.key, {
          statusCode: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          response: encryptPhi(keys, payload),
          expiresAt: new Date(clock.now().getTime() + IDEMPOTENCY_TTL_MS),
        });
      } else {
        await releaseKey(db, held.userId, held.key);
      }
    } catch (err) {
      // The answer still goes out; the key stays taken until its lease passes (ADR 0011).
      request.log.error({ err }, 'idempotency key: the answer could not be stored');
    }
    return payload;
  });
}
