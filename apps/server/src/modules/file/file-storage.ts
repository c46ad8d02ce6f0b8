import { randomToken } from '../../lib/crypto';

/** A new random storage key (the files row's `storage_key`); original file names are never used as keys. */
export function newStorageKey(): string {
  return randomToken(24);
}

const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The object of a file in the storage: `ab/abcdef…`, fanned out by the key's first two characters. The local
 * directory has always kept files at DATA_DIR/files/<ab>/<key>; the same layout under S3_PREFIX in a bucket, so a
 * row never needs to know which driver wrote it.
 */
export function fileObjectKey(storageKey: string): string {
  if (!KEY.test(storageKey)) throw new Error('invalid storage key');
  return `${storageKey.slice(0, 2)}/${storageKey}`;
}
