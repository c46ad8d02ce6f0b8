import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTenant, buildUser } from '../../../test/factories';
import { DOCX_MIN, JPEG_HEAD, PDF_MIN, PNG_1X1, SVG_SCRIPT, TEXT } from '../../../test/files';
import { countRows, createBareTestApp, type TestApp } from '../../../test/test-app';
import type { ObjectStorage } from '../../lib/storage';

type Body<T = unknown> = { status: number; message: string; data: T; requestId?: string };
type Uploaded = { id: string; name: string; size: number; contentType: string; previewUrl: string };

const MAX = 4096;
let t: TestApp;
/** A doctor of a hospital. */
let entry: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createBareTestApp({ UPLOAD_MAX_BYTES: String(MAX), UPLOAD_MAX_FILES: '3' });
  entry = await buildUser(t.db, (await buildTenant(t.db)).tenant.id);
});
afterAll(async () => {
  await t?.close();
});

function multipart(files: { name: string; data: Buffer; field?: string }[]) {
  const boundary = `----registry${Math.random().toString(16).slice(2)}`;
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (
  token: string | undefined,
  name: string,
  data: Buffer,
  url = '/oss/file/upload-file',
  purpose?: string,
) =>
  t.api({
    method: 'POST',
    url: purpose ? `${url}?purpose=${purpose}` : url,
    ...(token ? { token } : {}),
    ...multipart([{ name, data }]),
  });

async function storedFiles(): Promise<string[]> {
  const root = path.join(t.dataDir, 'files');
  try {
    const dirs = await readdir(root);
    const all = await Promise.all(dirs.map(async (d) => (await readdir(path.join(root, d))).map((f) => `${d}/${f}`)));
    return all.flat();
  } catch {
    return [];
  }
}

async function snapshot() {
  return {
    rows: await countRows(t, 'files'),
    audits: await countRows(t, 'audit_events'),
    disk: (await storedFiles()).length,
  };
}

describe('uploads', () => {
  it('should store an image checked by content, record it, audit it and answer with a preview URL', async () => {
    const token = await t.login(entry.username, entry.password);
    const before = await snapshot();
    for (const url of ['/oss/file/upload-file', '/oss/file/upload']) {
      const res = await upload(token, '心电图.PNG', PNG_1X1, url);
      expect(res.statusCode).toBe(200);
      const data = res.json<Body<Uploaded>>().data;
      expect(data).toMatchObject({ name: '心电图.PNG', size: PNG_1X1.length, contentType: 'image/png' });
      expect(data.previewUrl).toBe(`/api/cmdb-template/oss/file/preview/${data.id}`);
    }
    const after = await snapshot();
    expect(after).toEqual({ rows: before.rows + 2, audits: before.audits + 2, disk: before.disk + 2 });
    expect((await storedFiles()).some((f) => f.includes('心电图'))).toBe(false);
  });

  it('should accept a PDF as a document and refuse it as an avatar', async () => {
    const token = await t.login(entry.username, entry.password);
    expect((await upload(token, 'report.pdf', PDF_MIN, '/oss/file/upload', 'document')).statusCode).toBe(200);
    const avatar = await upload(token, 'report.pdf', PDF_MIN, '/oss/file/upload', 'avatar');
    expect(avatar.statusCode).toBe(400);
    expect(avatar.json<Body>().message).toBe('不支持的图片格式');
  });

  it('should refuse an SVG avatar, a file whose content is not its extension, and unknown content, writing nothing', async () => {
    const token = await t.login(entry.username, entry.password);
    const before = await snapshot();
    const svg = await upload(token, 'avatar.svg', SVG_SCRIPT, '/oss/file/upload', 'avatar');
    expect(svg.statusCode).toBe(400);
    expect(svg.json<Body>().message).toBe('不支持的图片格式');
    const disguised = await upload(token, 'photo.png', PDF_MIN);
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json<Body>().message).toBe('文件内容与扩展名不符');
    const textAsJpeg = await upload(token, 'scan.jpg', TEXT);
    expect(textAsJpeg.json<Body>().message).toBe('文件内容与扩展名不符');
    const jpegAsPng = await upload(token, 'scan.png', JPEG_HEAD);
    expect(jpegAsPng.json<Body>().message).toBe('文件内容与扩展名不符');
    const text = await upload(token, 'notes.txt', TEXT);
    expect(text.statusCode).toBe(400);
    expect(text.json<Body>().message).toBe('不支持的文件类型');
    expect(await snapshot()).toEqual(before);
  });

  it('should answer 413 with the limit in MB for a file over the limit and write nothing', async () => {
    const token = await t.login(entry.username, entry.password);
    const before = await snapshot();
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(MAX, 1)]);
    const res = await upload(token, 'big.png', big);
    expect(res.statusCode).toBe(413);
    const body = res.json<Body>();
    expect(body.status).toBe(413);
    expect(body.message).toMatch(/^文件大小超过限制（最大 [\d.]+ MB）$/);
    expect(await snapshot()).toEqual(before);
  });

  it('should store several files at once, all or nothing', async () => {
    const token = await t.login(entry.username, entry.password);
    const ok = await t.api({
      method: 'POST',
      url: '/oss/file/upload-files',
      token,
      ...multipart([
        { name: 'a.png', data: PNG_1X1 },
        { name: 'b.jpg', data: JPEG_HEAD },
      ]),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Body<Uploaded[]>>().data.map((f) => f.contentType)).toEqual(['image/png', 'image/jpeg']);

    const before = await snapshot();
    const mixed = await t.api({
      method: 'POST',
      url: '/oss/file/upload-files',
      token,
      ...multipart([
        { name: 'a.png', data: PNG_1X1 },
        { name: 'b.png', data: TEXT },
      ]),
    });
    expect(mixed.statusCode).toBe(400);
    const tooMany = await t.api({
      method: 'POST',
      url: '/oss/file/upload-files',
      token,
      ...multipart([1, 2, 3, 4].map((i) => ({ name: `${i}.png`, data: PNG_1X1 }))),
    });
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json<Body>().message).toBe('上传文件数量超过限制');
    expect(await snapshot()).toEqual(before);
  });

  it('should refuse an upload without a session before reading it, and a request without a file', async () => {
    const token = await t.login(entry.username, entry.password);
    const before = await snapshot();
    expect((await upload(undefined, 'a.png', PNG_1X1)).statusCode).toBe(401);
    const json = await t.api({ method: 'POST', url: '/oss/file/upload', token, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('should delete written bytes and answer 500 without internals when storing fails', async () => {
    const failing: ObjectStorage = {
      driver: 'local',
      put: async () => {
        throw new Error('EIO: disk failure at /secret/path');
      },
      get: async (key) => {
        throw new Error(`no ${key}`);
      },
      stat: async () => undefined,
      delete: async () => undefined,
      list: async () => [],
      close: () => undefined,
    };
    const f = await createBareTestApp({}, { fileStorage: failing });
    try {
      const doctor = await buildUser(f.db, (await buildTenant(f.db)).tenant.id);
      const token = await f.login(doctor.username, doctor.password);
      const res = await f.api({
        method: 'POST',
        url: '/oss/file/upload',
        token,
        ...multipart([{ name: 'a.png', data: PNG_1X1 }]),
      });
      expect(res.statusCode).toBe(500);
      const body = res.json<Body>();
      expect(body.message).toBe('服务器内部错误');
      expect(body.requestId).toBeTruthy();
      expect(res.body).not.toContain('secret');
      expect(await countRows(f, 'files')).toBe(0);
    } finally {
      await f.close();
    }
  });
});

describe('GET oss/file/preview/:id', () => {
  it('should serve the bytes inline with nosniff and no-store, with the token in the query', async () => {
    const token = await t.login(entry.username, entry.password);
    const { id, previewUrl } = (await upload(token, 'x.png', PNG_1X1)).json<Body<Uploaded>>().data;
    const res = await t.app.inject({ method: 'GET', url: `${previewUrl}?access_token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG_1X1)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(String(res.headers['content-disposition'])).toMatch(/^inline;/);
    const bearer = await t.api({ method: 'GET', url: `/oss/file/preview/${id}`, token });
    expect(bearer.statusCode).toBe(200);
  });

  it('should sandbox every served file and send a PDF as an attachment, never inline', async () => {
    const token = await t.login(entry.username, entry.password);
    const pdf = await upload(token, '知情同意书.pdf', PDF_MIN, '/oss/file/upload', 'document');
    expect(pdf.statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `${pdf.json<Body<Uploaded>>().data.previewUrl}?access_token=${token}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(String(res.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(;|$)/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const { previewUrl } = (await upload(token, 'x.png', PNG_1X1)).json<Body<Uploaded>>().data;
    const png = await t.app.inject({ method: 'GET', url: `${previewUrl}?access_token=${token}` });
    expect(String(png.headers['content-disposition'])).toMatch(/^inline;/);
    expect(String(png.headers['content-security-policy'])).toMatch(/(^|;\s*)sandbox(;|$)/);
  });

  it('should send non-inline types as attachments', async () => {
    const token = await t.login(entry.username, entry.password);
    const up = await upload(token, 'protocol.docx', DOCX_MIN, '/oss/file/upload', 'attachment');
    expect(up.statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: `${up.json<Body<Uploaded>>().data.previewUrl}?access_token=${token}`,
    });
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
  });

  it("should answer 404 for another tenant's file, exactly like a missing one, and 401 without a token", async () => {
    const token = await t.login(entry.username, entry.password);
    const { previewUrl } = (await upload(token, 'x.png', PNG_1X1)).json<Body<Uploaded>>().data;
    const { tenant } = await buildTenant(t.db);
    const stranger = await buildUser(t.db, tenant.id);
    const theirs = await t.login(stranger.username, stranger.password);
    const foreign = await t.app.inject({ method: 'GET', url: `${previewUrl}?access_token=${theirs}` });
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/cmdb-template/oss/file/preview/00000000-0000-4000-8000-000000000000?access_token=${theirs}`,
    });
    expect(foreign.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(foreign.json<Body>().message).toBe('文件不存在');
    expect(missing.json<Body>().message).toBe('文件不存在');
    expect((await t.app.inject({ method: 'GET', url: previewUrl })).statusCode).toBe(401);
  });
});
