import type { FastifyInstance } from 'fastify';
import { AppError, ERROR_MESSAGES } from '../lib/errors';

function refusePoison(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new AppError(400, ERROR_MESSAGES.protoPoisoning);
  // PostgreSQL text cannot hold NUL: refuse it here with a 400 rather than fail in the database.
  if ((typeof value === 'string' && value.includes('\u0000')) || key.includes('\u0000')) {
    throw new AppError(400, '请求内容包含非法字符');
  }
  if (key === 'constructor' && value !== null && typeof value === 'object' && 'prototype' in value) {
    throw new AppError(400, ERROR_MESSAGES.protoPoisoning);
  }
  return value;
}

/**
 * The JSON body parser: like Fastify's (which refuses `__proto__` with `onProtoPoisoning: 'error'`), but telling a
 * poisoned body ('请求内容包含非法字段') from malformed JSON ('请求内容不是合法的 JSON').
 */
export function registerJsonBody(app: FastifyInstance): void {
  // Fastify validates a missing body as null, which no object contract accepts: a request without a body is an
  // empty object, so a contract's defaults apply and its required fields are named.
  app.addHook('preValidation', async (request) => {
    if (request.body == null && request.routeOptions.schema?.body) request.body = {};
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      // An empty body is an empty object: the route's contract then names any missing field.
      done(null, {});
      return;
    }
    try {
      done(null, JSON.parse(text, refusePoison));
    } catch (err) {
      done(err instanceof AppError ? err : new AppError(400, '请求内容不是合法的 JSON'), undefined);
    }
  });

  // Some clients label an empty POST as a form: accept it (and simple forms) instead of answering 415.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    const entries = [...new URLSearchParams(text)];
    if (entries.some(([k, v]) => k === '__proto__' || k.includes('\u0000') || v.includes('\u0000'))) {
      done(new AppError(400, ERROR_MESSAGES.protoPoisoning), undefined);
      return;
    }
    done(null, Object.fromEntries(entries));
  });
}
