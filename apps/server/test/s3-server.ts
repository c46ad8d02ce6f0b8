import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';

/** How s3rver names an object's bytes on its disk. */
const OBJECT_SUFFIX = '._S3rver_object';

/** The credentials s3rver accepts (it checks every request's signature with them). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export type TestS3Server = {
  endpoint: string;
  bucket: string;
  region: string;
  /** The environment of an app that stores its files in this bucket (path style, under `prefix`). */
  env(prefix?: string): Record<string, string>;
  /** Multipart uploads begun and neither completed nor aborted (their parts are on the server's disk). */
  pendingUploads(): Promise<string[]>;
  /** Every object key in the bucket. */
  objectKeys(): Promise<string[]>;
  close(): Promise<void>;
};

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Whether a request carries the AWS signature (v4, header form) of the given credentials for the path it asks for.
 * s3rver computes a bucket-level request's canonical path without the trailing slash the SDK signs (`/bucket/`), so
 * it would refuse every correctly signed ListObjectsV2; the server checks those itself, as S3 does.
 */
function signedByS3rverCredentials(req: IncomingMessage, url: URL): boolean {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
      String(req.headers.authorization ?? ''),
    );
  if (!auth) return false;
  const [, accessKeyId, date, region, service, signedHeaders, signature] = auth as unknown as string[];
  if (accessKeyId !== S3RVER_CREDENTIALS.accessKeyId) return false;
  const query = [...url.searchParams]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const headers = signedHeaders!
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/ +/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, req.headers['x-amz-content-sha256']].join(
    '\n',
  );
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    req.headers['x-amz-date'],
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  let key = hmac(`AWS4${S3RVER_CREDENTIALS.secretAccessKey}`, date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  const expected = hmac(key, toSign);
  const given = Buffer.from(signature!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A real S3-protocol server on 127.0.0.1 (s3rver from npm: objects in a temporary directory, signatures checked),
 * with one bucket. s3rver does not implement AbortMultipartUpload; this server answers it as S3 does (the upload and
 * its parts removed, 204), so a test can tell that an adapter aborted what it began. It also answers the bucket's
 * listing (ListObjectsV2) from s3rver's store, its signature checked, which s3rver cannot (see listObjects and
 * signedByS3rverCredentials).
 */
export async function startS3Server(bucket = 'registry-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'registry-s3-'));
  const s3 = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }], vhostBuckets: false });
  await s3.configureBuckets();
  const uploadsDir = s3.store.getResourcePath(bucket, undefined, 'uploads');
  const handle = s3.callback();

  async function objectKeys(): Promise<string[]> {
    // read from the server's disk (see listObjects)
    const bucketDir = path.join(directory, bucket);
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) await walk(full);
        else if (e.name.endsWith(OBJECT_SUFFIX))
          found.push(path.relative(bucketDir, full).slice(0, -OBJECT_SUFFIX.length).split(path.sep).join('/'));
      }
    };
    await walk(bucketDir);
    // S3's order: by the keys' UTF-8 bytes
    return found.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  /**
   * ListObjectsV2 (prefix, max-keys, continuation-token, start-after) from s3rver's store: s3rver's own listing
   * cannot be used, its continuation tokens are DES-encrypted, which the OpenSSL 3 of Node 20 refuses (500).
   */
  async function listObjects(q: URLSearchParams): Promise<string> {
    const prefix = q.get('prefix') ?? '';
    const maxKeys = Math.min(Number(q.get('max-keys') ?? 1000) || 1000, 1000);
    const token = q.get('continuation-token');
    const after = token !== null ? Buffer.from(token, 'base64url').toString('utf8') : (q.get('start-after') ?? '');
    const matching = (await objectKeys()).filter(
      (k) => k.startsWith(prefix) && Buffer.compare(Buffer.from(k), Buffer.from(after)) > 0,
    );
    const page = matching.slice(0, maxKeys);
    const truncated = matching.length > page.length;
    const xml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
      `<Name>${xml(bucket)}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>`,
      `<MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>`,
      ...page.map((k) => `<Contents><Key>${xml(k)}</Key></Contents>`),
      truncated
        ? `<NextContinuationToken>${Buffer.from(page.at(-1) ?? '').toString('base64url')}</NextContinuationToken>`
        : '',
      '</ListBucketResult>',
    ].join('');
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const uploadId = url.searchParams.get('uploadId');
    if (req.method === 'DELETE' && uploadId !== null && url.pathname.startsWith(`/${bucket}/`)) {
      if (!/^[0-9a-f]+$/.test(uploadId)) {
        res.writeHead(404).end();
        return;
      }
      req.resume();
      rm(path.join(uploadsDir, uploadId), { recursive: true, force: true }).then(
        () => res.writeHead(204).end(),
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (req.method === 'GET' && url.pathname === `/${bucket}/` && url.searchParams.get('list-type') === '2') {
      req.resume();
      if (!signedByS3rverCredentials(req, url)) {
        res
          .writeHead(403, { 'content-type': 'application/xml' })
          .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
      listObjects(url.searchParams).then(
        (xml) => res.writeHead(200, { 'content-type': 'application/xml' }).end(xml),
        () => res.writeHead(500).end(),
      );
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    env: (prefix = '') => ({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ...(prefix ? { S3_PREFIX: prefix } : {}),
    }),
    pendingUploads: async () => readdir(uploadsDir).catch(() => []),
    objectKeys,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      s3.logger.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
