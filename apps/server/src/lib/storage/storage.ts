import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { AppError, fileTooLargeMessage } from '../errors';

/** How a stored object is written: a limit in bytes, enforced while the bytes stream, and the type to keep. */
export type PutOptions = { maxBytes?: number; contentType?: string };
export type PutResult = { size: number; sha256: string };
/** What the storage knows of an object; the local directory keeps no content type. */
export type ObjectInfo = { size: number; contentType?: string };
export type StoredObject = ObjectInfo & { stream: Readable };

/**
 * Where stored files live: a local directory (the embedded default) or an S3-compatible bucket, chosen by
 * STORAGE_DRIVER. Keys are `/`-separated paths of UTF-8 segments (see `checkStorageKey`); callers choose them, an
 * uploaded file's name never becomes one. A key is never also the folder of other keys (`a` and `a/b`): the local
 * directory cannot hold both. Every adapter passes test/storage-contract.ts.
 */
export type ObjectStorage = {
  readonly driver: 'local' | 's3';
  /**
   * Writes the whole stream under the key, or nothing: a stream that fails or passes `maxBytes` leaves no object
   * (and an existing object under the key unchanged); past `maxBytes` it fails with ObjectTooLargeError.
   */
  put(key: string, body: Readable, options?: PutOptions): Promise<PutResult>;
  /** The object's bytes as a stream; StorageNotFoundError when there is none. */
  get(key: string): Promise<StoredObject>;
  /** What is known of the object, or undefined when there is none. */
  stat(key: string): Promise<ObjectInfo | undefined>;
  /** Removes the object; a missing one is no error. */
  delete(key: string): Promise<void>;
  /**
   * The keys of every object whose key starts with `prefix` (a plain string match, so `a/` lists what is under the
   * folder `a`, `a/b` also finds `a/bc`; '' lists all), as full keys — the ones `get` takes —, sorted. The part up to
   * the prefix's last `/` follows the key rule (InvalidStorageKeyError otherwise). Writes under way are never listed.
   */
  list(prefix: string): Promise<string[]>;
  /** Releases the adapter's connections (the S3 client's sockets); nothing to do for the local directory. */
  close(): void;
};

export class StorageNotFoundError extends Error {
  readonly code = 'STORAGE_NOT_FOUND';
  constructor(key: string) {
    super(`no stored object under key ${JSON.stringify(key)}`);
    this.name = 'StorageNotFoundError';
  }
}

export class InvalidStorageKeyError extends Error {
  readonly code = 'STORAGE_INVALID_KEY';
  constructor(key: string, why: string) {
    super(`invalid storage key ${JSON.stringify(key.slice(0, 100))}: ${why}`);
    this.name = 'InvalidStorageKeyError';
  }
}

/** The storage service did not answer as it should (network, credentials, bucket): the caller sees a 503. */
export class StorageUnavailableError extends Error {
  readonly code = 'STORAGE_UNAVAILABLE';
  constructor(operation: string, cause: unknown) {
    super(`object storage failed during ${operation}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** An object over its size limit: the same 413 and Chinese message as an upload over UPLOAD_MAX_BYTES. */
export class ObjectTooLargeError extends AppError {
  constructor(readonly maxBytes: number) {
    super(413, fileTooLargeMessage(maxBytes));
    this.name = 'ObjectTooLargeError';
  }
}

const MAX_KEY_BYTES = 1024; // S3's limit of a key, UTF-8
const MAX_SEGMENT_BYTES = 255; // a file name on the local file systems we run on
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The one key rule of every adapter, so that an object written through one driver could be written through the
 * other: 1 to 1024 UTF-8 bytes, `/`-separated segments of at most 255 bytes, none empty, `.` or `..`, no control
 * characters or backslashes.
 */
export function checkStorageKey(key: string): string[] {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidStorageKeyError(String(key), 'empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new InvalidStorageKeyError(key, 'longer than 1024 bytes');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(key)) throw new InvalidStorageKeyError(key, 'control character or backslash');
  if (LONE_SURROGATE.test(key)) throw new InvalidStorageKeyError(key, 'not valid Unicode');
  const segments = key.split('/');
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..') throw new InvalidStorageKeyError(key, 'empty, "." or ".." segment');
    if (Buffer.byteLength(s, 'utf8') > MAX_SEGMENT_BYTES)
      throw new InvalidStorageKeyError(key, 'segment longer than 255 bytes');
  }
  return segments;
}

/** Checks a `list` prefix: what precedes its last `/` must be a key (the folder listed). Answers that folder's segments. */
export function checkStoragePrefix(prefix: string): string[] {
  if (typeof prefix !== 'string') throw new InvalidStorageKeyError(String(prefix), 'not a string');
  const slash = prefix.lastIndexOf('/');
  const folder = checkStorageKey(slash < 0 ? 'x' : `${prefix.slice(0, slash + 1)}x`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(prefix))
    throw new InvalidStorageKeyError(prefix, 'control character or backslash');
  return folder.slice(0, -1);
}

/**
 * Counts and hashes the bytes passing through and fails with ObjectTooLargeError as soon as they pass `maxBytes`:
 * the limit holds while the upload streams, before the object exists.
 */
export class MeteredStream extends Transform {
  /** Not `size`: lib-storage takes a body's `size` for its length. */
  bytes = 0;
  private readonly hash = createHash('sha256');
  /** Set when the limit was passed: the adapter reports this error, whatever its transport made of it. */
  tooLarge: ObjectTooLargeError | undefined;

  constructor(private readonly maxBytes: number | undefined) {
    super();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.bytes += bytes.length;
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes) {
      this.tooLarge = new ObjectTooLargeError(this.maxBytes);
      callback(this.tooLarge);
      return;
    }
    this.hash.update(bytes);
    callback(null, bytes);
  }

  result(): PutResult {
    return { size: this.bytes, sha256: this.hash.digest('hex') };
  }
}

/** A buffer already in memory as a stream to `put` (one chunk, byte mode). */
export function bufferStream(data: Buffer): Readable {
  return Readable.from([data], { objectMode: false });
}
