import path from 'node:path';
import type { StorageConfig } from '../../config/config';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import type { ObjectStorage } from './storage';

export * from './storage';
export { createLocalStorage } from './local';
export { createS3Storage, createS3Client, type S3StorageOptions } from './s3';

/** The storage the configuration names (STORAGE_DRIVER): the local directory by default, else the S3 bucket. */
export function createStorage(config: StorageConfig): ObjectStorage {
  if (config.driver === 's3') return createS3Storage(config);
  return createLocalStorage(path.resolve(config.dir));
}
