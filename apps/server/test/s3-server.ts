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

/**
 * A real S3-protocol server on 127.0.0.1 (s3rver from npm: objects in a temporary directory, signatures checked),
 * with one bucket. s3rver does not implement AbortMultipartUpload; this server answers it as S3 does (the upload and
 * its parts removed, 204), so a test can tell that an adapter aborted what it began.
 */
export async function startS3Server(bucket = 'registry-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'registry-s3-'));
  const s3 = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }], vhostBuckets: false });
  await s3.configureBuckets();
  const uploadsDir = s3.store.getResourcePath(bucket, undefined, 'uploads');
  const handle = s3.callback();
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
    async objectKeys() {
      // read from the server's disk: s3rver's listing does not check out with the SDK's signature of it
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
      return found.sort();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      s3.logger.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
