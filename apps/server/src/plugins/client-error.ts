import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '@registry/shared/contracts/envelope';
import { ERROR_MESSAGES } from '../lib/errors';
import { genRequestId } from './request-log';

/** Node's HTTP server refuses a request line and headers over `maxHeaderSize` (16 KB) before Fastify sees it. */
export const HEADER_OVERFLOW_MESSAGE = '请求地址或请求头过长（不能超过16KB），请缩短查询条件后重试';

function mapClientError(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: HEADER_OVERFLOW_MESSAGE };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: '请求超时，请重试' };
  return { status: 400, message: ERROR_MESSAGES.badRequest };
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (a query string over 16 KB, a malformed request
 * line, a timeout) answers the envelope with a Chinese message like every other refusal, instead of Node's or
 * Fastify's English body. The raw request (which may hold a phone or a name in its query) is never logged.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection is gone: nothing to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = mapClientError(err.code);
  const requestId = genRequestId();
  this.log.debug({ code: err.code, status, requestId }, 'client error');
  if (socket.writable) {
    const body: ErrorBody = { status, message, data: null, requestId };
    const text = JSON.stringify(body);
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(text)}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        text,
      ].join('\r\n'),
    );
  }
  socket.destroy();
}
