import { pipeline, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  checkStorageKey,
  checkStoragePrefix,
  MeteredStream,
  StorageNotFoundError,
  StorageUnavailableError,
  type ObjectStorage,
} from './storage';

export type S3StorageOptions = {
  /** The service's URL (MinIO, OSS, COS, …); undefined = AWS S3 of the region. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Both or neither; neither = the SDK's default credential chain (environment, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO; OSS and COS want the virtual-hosted style). */
  forcePathStyle: boolean;
  /** Put before every key, e.g. `registry/`: one bucket can hold several deployments. */
  prefix: string;
  /** Keys asked for per ListObjectsV2 page (default and S3's maximum 1000; the tests page by a few). */
  listPageSize?: number;
};

/**
 * Multipart part size: the S3 minimum. An upload holds about QUEUE + 1 parts in memory (those being sent and the one
 * being filled), 15 MB at most, whatever the file's size.
 */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 2;

function isNotFound(err: unknown): boolean {
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** The client every S3 adapter uses (also the tests' client of the same bucket). */
export function createS3Client(options: S3StorageOptions): S3Client {
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // The SDK's default CRC32 checksums (aws-chunked uploads, since early 2025) are refused by S3-compatible services
    // that do not implement them; the payload's integrity is still covered by the signature and TLS.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // an unreachable service answers a 503 within seconds instead of holding the request
    requestHandler: { connectionTimeout: 5_000 },
  };
  return new S3Client(config);
}

/**
 * Objects in an S3-compatible bucket under `prefix`. A write streams through lib-storage's Upload: one PUT for an
 * object under 5 MB, else a multipart upload whose parts are aborted (deleted) when the stream fails or passes its
 * limit, so no object appears; a failed write never touches an existing object of the key.
 */
export function createS3Storage(options: S3StorageOptions, client: S3Client = createS3Client(options)): ObjectStorage {
  const { bucket, prefix } = options;
  const objectKey = (key: string) => {
    checkStorageKey(key);
    return `${prefix}${key}`;
  };

  return {
    driver: 's3',

    async put(key, body, putOptions = {}) {
      const Key = objectKey(key);
      const meter = new MeteredStream(putOptions.maxBytes);
      let sourceError: unknown;
      // the source's failure (a client gone) reaches the upload through the meter, and the upload's failure stops
      // the source
      pipeline(body, meter, (err) => {
        if (err) sourceError = err;
      });
      const upload = new Upload({
        client,
        params: {
          Bucket: bucket,
          Key,
          Body: meter,
          ...(putOptions.contentType ? { ContentType: putOptions.contentType } : {}),
        },
        partSize: PART_BYTES,
        queueSize: QUEUE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        return meter.result();
      } catch (err) {
        meter.destroy();
        if (meter.tooLarge) throw meter.tooLarge;
        if (sourceError) throw sourceError;
        throw new StorageUnavailableError('put', err);
      }
    },

    async get(key) {
      const Key = objectKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        if (!(out.Body instanceof Readable)) throw new Error('GetObject answered without a stream');
        return {
          stream: out.Body,
          size: out.ContentLength ?? 0,
          ...(out.ContentType ? { contentType: out.ContentType } : {}),
        };
      } catch (err) {
        if (isNotFound(err)) throw new StorageNotFoundError(key);
        throw new StorageUnavailableError('get', err);
      }
    },

    async stat(key) {
      const Key = objectKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
        return { size: out.ContentLength ?? 0, ...(out.ContentType ? { contentType: out.ContentType } : {}) };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw new StorageUnavailableError('stat', err);
      }
    },

    async delete(key) {
      const Key = objectKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      } catch (err) {
        if (isNotFound(err)) return;
        throw new StorageUnavailableError('delete', err);
      }
    },

    async list(listPrefix) {
      checkStoragePrefix(listPrefix);
      const keys: string[] = [];
      let token: string | undefined;
      try {
        do {
          const out = await client.send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: `${prefix}${listPrefix}`,
              ...(options.listPageSize ? { MaxKeys: options.listPageSize } : {}),
              ...(token ? { ContinuationToken: token } : {}),
            }),
          );
          for (const { Key } of out.Contents ?? []) {
            // a folder marker (`a/`, made by some consoles) is no object of ours
            if (Key?.startsWith(prefix) && !Key.endsWith('/')) keys.push(Key.slice(prefix.length));
          }
          token = out.IsTruncated ? out.NextContinuationToken : undefined;
        } while (token);
      } catch (err) {
        throw new StorageUnavailableError('list', err);
      }
      return keys.sort();
    },

    close() {
      client.destroy();
    },
  };
}
