import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { APP_CODE } from '@registry/shared/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTenant, buildUser } from '../../../test/factories';
import { PNG_1X1 } from '../../../test/files';
import { startS3Server, type TestS3Server } from '../../../test/s3-server';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import { buildApp } from '../../app';
import { createStorage } from '../../lib/storage';
import { fileObjectKey } from './file-storage';

type Body<T = unknown> = { status: number; message: string; data: T };
type Uploaded = { id: string; name: string; size: number; previewUrl: string };

const MAX = 8 * 1024 * 1024;
let s3: TestS3Server;
let t: TestApp;
let token: string;
beforeAll(async () => {
  s3 = await startS3Server();
  t = await createBareTestApp({ ...s3.env('registry/'), UPLOAD_MAX_BYTES: String(MAX) });
  const user = await buildUser(t.db, (await buildTenant(t.db)).tenant.id);
  token = await t.login(user.username, user.password);
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

function multipart(name: string, data: Buffer) {
  const boundary = `----registry${Math.random().toString(16).slice(2)}`;
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A PNG whose content is checked by its first bytes, padded to `size` (the type check reads a sample only). */
const pngOf = (size: number) => Buffer.concat([PNG_1X1, Buffer.alloc(size - PNG_1X1.length, 0x5a)]);

async function storageKeyOf(id: string): Promise<string> {
  const { rows } = await t.database.pool.query<{ storage_key: string }>('select storage_key from files where id = $1', [
    id,
  ]);
  return rows[0]!.storage_key;
}

describe('files on an S3-compatible bucket (STORAGE_DRIVER=s3)', () => {
  it('should upload into the bucket under S3_PREFIX and download the same bytes, nothing on the local disk', async () => {
    const data = pngOf(6 * 1024 * 1024); // over one multipart part
    const up = await t.api({ method: 'POST', url: '/oss/file/upload', token, ...multipart('胸片 正位.png', data) });
    expect(up.statusCode).toBe(200);
    const file = up.json<Body<Uploaded>>().data;
    expect(file).toMatchObject({ name: '胸片 正位.png', size: data.length });

    const bucket = createStorage(t.config.storage);
    const info = await bucket.stat(fileObjectKey(await storageKeyOf(file.id)));
    bucket.close();
    expect(info).toEqual({ size: data.length, contentType: 'image/png' });
    expect(await readdir(path.join(t.dataDir, 'files')).catch(() => [])).toEqual([]);

    const down = await t.app.inject({ method: 'GET', url: `${file.previewUrl}?access_token=${token}` });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toBe('image/png');
    expect(down.headers['content-length']).toBe(String(data.length));
    expect(down.rawPayload.equals(data)).toBe(true);
  });

  it('should download through a second instance what the first stored: the bucket and the database are shared', async () => {
    const up = await t.api({ method: 'POST', url: '/oss/file/upload', token, ...multipart('心电图.png', PNG_1X1) });
    const { previewUrl } = up.json<Body<Uploaded>>().data;
    const other: FastifyInstance = await buildApp({ config: t.config, pool: t.database.pool, clock: t.clock });
    try {
      const res = await other.inject({
        method: 'GET',
        url: `${previewUrl}?access_token=${token}`,
        headers: { 'x-app-code': APP_CODE },
      });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG_1X1)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('should refuse a file over UPLOAD_MAX_BYTES with the 413 and leave no row, object or upload part', async () => {
    const rows = await countRows(t, 'files');
    const res = await t.api({
      method: 'POST',
      url: '/oss/file/upload',
      token,
      ...multipart('big.png', pngOf(MAX + 1)),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<Body>().message).toBe('文件大小超过限制（最大 8 MB）');
    expect(await countRows(t, 'files')).toBe(rows);
    expect(await s3.pendingUploads()).toEqual([]);
    expect(await s3.objectKeys()).toHaveLength(rows);
  });

  it('should answer 404 when the row is there but its object is gone, and 503 when the bucket does not answer', async () => {
    const up = await t.api({ method: 'POST', url: '/oss/file/upload', token, ...multipart('x.png', PNG_1X1) });
    const file = up.json<Body<Uploaded>>().data;
    const bucket = createStorage(t.config.storage);
    await bucket.delete(fileObjectKey(await storageKeyOf(file.id)));
    bucket.close();
    const gone = await t.app.inject({ method: 'GET', url: `${file.previewUrl}?access_token=${token}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json<Body>().message).toBe('文件不存在');

    const down = await createBareTestApp({ ...s3.env(), S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'nowhere' });
    try {
      const user = await buildUser(down.db, (await buildTenant(down.db)).tenant.id);
      const res = await down.api({
        method: 'POST',
        url: '/oss/file/upload',
        token: await down.login(user.username, user.password),
        ...multipart('x.png', PNG_1X1),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json<Body>().message).toBe('文件存储服务暂时不可用，请稍后重试');
      expect(await countRows(down, 'files')).toBe(0);
    } finally {
      await down.close();
    }
  });
});
