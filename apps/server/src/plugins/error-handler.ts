import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody, ValidationIssue } from '@registry/shared/contracts/envelope';
import { AppError, ERROR_MESSAGES, fileTooLargeMessage } from '../lib/errors';
import { isDatabaseUnavailable } from '../db/pool';
import { StorageUnavailableError } from '../lib/storage/storage';
import { labelOf } from './field-labels';
import { serializeError } from './request-log';

export type Mapped = {
  status: number;
  message: string;
  issues?: ValidationIssue[];
  log: 'none' | 'warn' | 'error' | 'unavailable';
};

/** The PostgreSQL error code in an error or its causes (Drizzle wraps driver errors). */
function findDbCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    const e = cur as { code?: unknown; cause?: unknown };
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    cur = e.cause;
  }
  return undefined;
}

function mapDbError(err: unknown): Mapped | undefined {
  // first: a lost connection or an unreachable database is 503 whatever else the error says
  if (isDatabaseUnavailable(err)) return { status: 503, message: ERROR_MESSAGES.dbUnavailable, log: 'unavailable' };
  const code = findDbCode(err);
  if (code === '23505') return { status: 409, message: ERROR_MESSAGES.duplicate, log: 'warn' };
  if (code === '23503') return { status: 409, message: ERROR_MESSAGES.referenced, log: 'warn' };
  if (
    code === '22P02' ||
    code === '23502' ||
    code === '23514' ||
    code === '22001' ||
    code === '22021' ||
    code === '22P05'
  )
    return { status: 400, message: ERROR_MESSAGES.badRequest, log: 'warn' };
  return undefined;
}

/** Maps any error to the status and Chinese message of the envelope (exported for its unit test). */
export function mapError(err: FastifyError | Error): Mapped {
  if (err instanceof AppError)
    return { status: err.statusCode, message: err.message, ...(err.issues ? { issues: err.issues } : {}), log: 'none' };
  if (hasZodFastifySchemaValidationErrors(err)) {
    const issues = err.validation.map((v) => {
      const parts = v.instancePath.split('/').filter(Boolean);
      const path = parts.join('.');
      const label = parts.length > 0 ? labelOf(parts) : '请求参数';
      return { path, message: `${label}：${v.message ?? ERROR_MESSAGES.badRequest}` };
    });
    return { status: 400, message: issues[0]?.message ?? ERROR_MESSAGES.badRequest, issues, log: 'none' };
  }
  // the bucket did not answer (network, credentials): the request may succeed later; the cause goes to the log
  if (err instanceof StorageUnavailableError)
    return { status: 503, message: ERROR_MESSAGES.storageUnavailable, log: 'error' };
  const fe = err as FastifyError & { statusCode?: number };
  switch (fe.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, message: '', log: 'none' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: '请求内容过大', log: 'none' };
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { status: 413, message: ERROR_MESSAGES.tooManyFiles, log: 'none' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, message: '请使用 multipart/form-data 上传文件', log: 'none' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: '不支持的请求内容类型', log: 'none' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: '请求内容不能为空', log: 'none' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: ERROR_MESSAGES.badRequest, log: 'none' };
    default:
      break;
  }
  if (err instanceof SyntaxError && fe.statusCode === 400) {
    const proto = /prototype|constructor/i.test(err.message);
    return { status: 400, message: proto ? ERROR_MESSAGES.protoPoisoning : '请求内容不是合法的 JSON', log: 'none' };
  }
  const db = mapDbError(err);
  if (db) return db;
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 429) return { status: 429, message: ERROR_MESSAGES.tooManyRequests, log: 'none' };
    return { status: fe.statusCode, message: ERROR_MESSAGES.badRequest, log: 'warn' };
  }
  return { status: 500, message: ERROR_MESSAGES.internal, log: 'error' };
}

/**
 * The driver's own error at the end of the cause chain, code and message only: Drizzle's wrapper quotes the query
 * and its parameters, which may hold patient data and never go to the log.
 */
function driverError(err: unknown): { code?: unknown; message?: unknown } {
  let cur = err as { code?: unknown; message?: unknown; cause?: unknown };
  for (let depth = 0; depth < 5 && cur.cause && typeof cur.cause === 'object'; depth++) cur = cur.cause as typeof cur;
  return { code: cur.code, message: cur.message };
}

/** The one error handler: typed errors, validation failures, Fastify and PostgreSQL errors → the envelope. */
export function registerErrorHandler(app: FastifyInstance, opts: { uploadMaxBytes: number }): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapError(err);
    if (mapped.status === 413 && mapped.message === '') mapped.message = fileTooLargeMessage(opts.uploadMaxBytes);
    if (mapped.log === 'error') request.log.error({ err }, 'request failed');
    else if (mapped.log === 'unavailable') request.log.error({ db: driverError(err) }, 'database unavailable');
    else if (mapped.log === 'warn') {
      const { type, message, code, query, constraint, table, column } = serializeError(err);
      request.log.warn({ error: { type, message, code, query, constraint, table, column } }, 'request rejected');
    }
    const body: ErrorBody = {
      status: mapped.status,
      message: mapped.message,
      data: null,
      requestId: String(request.id),
      ...(mapped.issues ? { issues: mapped.issues } : {}),
    };
    // A stream may already have set headers meant for a file: the error is JSON.
    reply.removeHeader('content-disposition');
    return reply.status(mapped.status).type('application/json; charset=utf-8').send(body);
  });
}
