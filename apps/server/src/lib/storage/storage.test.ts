import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeStorageContract } from '../../../test/storage-contract';
import { S3RVER_CREDENTIALS, startS3Server } from '../../../test/s3-server';
import {
  bufferStream,
  createLocalStorage,
  createS3Storage,
  InvalidStorageKeyError,
  StorageUnavailableError,
} from './index';

describeStorageContract('local directory', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'registry-storage-'));
  return {
    storage: createLocalStorage(root),
    leftovers: async () => readdir(path.join(root, '.incoming')).catch(() => []),
    close: () => rm(root, { recursive: true, force: true }),
  };
});

describeStorageContract('S3 (s3rver), under a prefix', async () => {
  const server = await startS3Server();
  const storage = createS3Storage({
    endpoint: server.endpoint,
    region: server.region,
    bucket: server.bucket,
    ...S3RVER_CREDENTIALS,
    forcePathStyle: true,
    prefix: '医院甲/registry/',
    // pages of two keys: the contract's listings take several
    listPageSize: 2,
  });
  return {
    storage,
    leftovers: () => server.pendingUploads(),
    close: async () => {
      storage.close();
      await server.close();
    },
  };
});

describe('local directory storage', () => {
  it('should read the files earlier versions wrote at DATA_DIR/files/<ab>/<key>, and keep its work folder to itself', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'registry-storage-'));
    try {
      await mkdir(path.join(root, 'Ab'), { recursive: true });
      await writeFile(path.join(root, 'Ab', 'AbCdEfGhIjKlMnOpQrSt'), '旧文件');
      const storage = createLocalStorage(root);
      const { stream, size } = await storage.get('Ab/AbCdEfGhIjKlMnOpQrSt');
      expect(size).toBe(Buffer.byteLength('旧文件'));
      stream.destroy();
      await expect(storage.put('.incoming/x', bufferStream(Buffer.from('x')))).rejects.toBeInstanceOf(
        InvalidStorageKeyError,
      );
      // a write under way (its temporary file) is no object
      await mkdir(path.join(root, '.incoming'), { recursive: true });
      await writeFile(path.join(root, '.incoming', 'running.part'), 'half');
      expect(await storage.list('')).toEqual(['Ab/AbCdEfGhIjKlMnOpQrSt']);
      expect(await storage.list('.incoming/')).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('should clear what a crashed write left in its work folder a day ago, not a write still under way', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'registry-storage-'));
    try {
      const incoming = path.join(root, '.incoming');
      await mkdir(incoming);
      await writeFile(path.join(incoming, 'crashed.part'), 'half');
      await writeFile(path.join(incoming, 'running.part'), 'half');
      const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
      await utimes(path.join(incoming, 'crashed.part'), dayAgo, dayAgo);
      const storage = createLocalStorage(root);
      await storage.put('a/b', bufferStream(Buffer.from('x')));
      expect(await readdir(incoming)).toEqual(['running.part']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('S3 storage', () => {
  it('should answer StorageUnavailableError (a 503, not a missing file) when the service does not answer', async () => {
    const server = await startS3Server();
    const endpoint = server.endpoint;
    await server.close();
    const storage = createS3Storage({
      endpoint,
      region: 'us-east-1',
      bucket: 'registry-test',
      ...S3RVER_CREDENTIALS,
      forcePathStyle: true,
      prefix: '',
    });
    try {
      const got = await storage.get('a/b').catch((e) => e);
      expect(got).toBeInstanceOf(StorageUnavailableError);
      await expect(storage.put('a/b', bufferStream(Buffer.from('x')))).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(storage.list('a/')).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      storage.close();
    }
  });

  it('should refuse wrong credentials as unavailable, never as a missing file', async () => {
    const server = await startS3Server();
    try {
      const storage = createS3Storage({
        endpoint: server.endpoint,
        region: server.region,
        bucket: server.bucket,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'wrong',
        forcePathStyle: true,
        prefix: '',
      });
      await expect(storage.put('a/b', bufferStream(Buffer.from('x')))).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(storage.list('')).rejects.toBeInstanceOf(StorageUnavailableError);
      storage.close();
    } finally {
      await server.close();
    }
  });
});
