import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import { mapError } from './error-handler';

/** A driver error as Drizzle reports it: wrapped, with the PostgreSQL error as its cause. */
function wrapped(code: string, message = 'db error'): Error {
  const pgError = Object.assign(new Error(message), { code, detail: 'Key (code)=(HF-REG) already exists.' });
  return new Error('Failed query: insert into "projects" ...', { cause: pgError });
}

describe('mapError', () => {
  it('should map a unique violation to 409 数据已存在 without the detail', () => {
    expect(mapError(wrapped('23505'))).toMatchObject({ status: 409, message: '数据已存在' });
  });

  it('should map a foreign key violation to 409', () => {
    expect(mapError(wrapped('23503'))).toMatchObject({ status: 409, message: '关联数据不存在或仍被引用' });
  });

  it('should map connection failures to 503 with the Chinese message', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const err of [
      refused,
      wrapped('57P01', 'terminating connection due to administrator command'),
      wrapped('08006'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      wrapped('57P03', 'the database system is starting up'),
      wrapped('53300', 'sorry, too many clients already'),
      new Error('Client was closed and is not queryable'),
      Object.assign(new Error('getaddrinfo EAI_AGAIN db'), { code: 'EAI_AGAIN' }),
    ]) {
      expect(mapError(err)).toMatchObject({ status: 503, message: '数据库暂时不可用，请稍后重试' });
    }
  });

  it('should map bad text for the database to 400', () => {
    expect(mapError(wrapped('22P02')).status).toBe(400);
    expect(mapError(wrapped('22021')).status).toBe(400);
  });

  it('should keep typed errors as they are', () => {
    expect(mapError(new AppError(423, '账号已锁定，请15分钟后再试'))).toMatchObject({
      status: 423,
      message: '账号已锁定，请15分钟后再试',
    });
  });

  it('should turn anything else into a generic 500', () => {
    expect(mapError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toMatchObject({
      status: 500,
      message: '服务器内部错误',
    });
    expect(mapError(wrapped('42P01', 'relation "x" does not exist'))).toMatchObject({
      status: 500,
      message: '服务器内部错误',
    });
  });
});
