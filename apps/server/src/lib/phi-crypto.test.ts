import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config';
import { blindIndex, createPhiKeys, decryptPhi, encryptPhi, PhiCryptoError, resolvePhiKeys } from './phi-crypto';

const keys = createPhiKeys(randomBytes(32), randomBytes(32));
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'phi-crypto-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('phi crypto', () => {
  it('should give back the plaintext when a value is encrypted and decrypted', () => {
    const stored = encryptPhi(keys, '11010519491231002X');
    expect(stored).not.toContain('11010519491231002X');
    expect(stored.startsWith('v1:')).toBe(true);
    expect(decryptPhi(keys, stored)).toBe('11010519491231002X');
  });

  it('should use a fresh IV when the same value is encrypted twice', () => {
    const a = encryptPhi(keys, '13800000001');
    const b = encryptPhi(keys, '13800000001');
    expect(a).not.toBe(b);
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
  });

  it('should refuse the ciphertext when a byte of it is tampered with', () => {
    const [id, iv, tag, ct] = encryptPhi(keys, '13800000001').split(':') as [string, string, string, string];
    const bytes = Buffer.from(ct, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(() => decryptPhi(keys, [id, iv, tag, bytes.toString('base64')].join(':'))).toThrow(PhiCryptoError);
    const badTag = Buffer.from(tag, 'base64');
    badTag[3] = (badTag[3] ?? 0) ^ 1;
    expect(() => decryptPhi(keys, [id, iv, badTag.toString('base64'), ct].join(':'))).toThrow(PhiCryptoError);
    expect(() => decryptPhi(keys, 'v1:abc')).toThrow(PhiCryptoError);
  });

  it('should refuse the ciphertext when it was written with another key', () => {
    const other = createPhiKeys(randomBytes(32), randomBytes(32));
    expect(() => decryptPhi(other, encryptPhi(keys, '13800000001'))).toThrow(PhiCryptoError);
  });

  it('should give the same blind index when the value differs only in case and spaces', () => {
    expect(blindIndex(keys, '11010519491231002x')).toBe(blindIndex(keys, ' 110105 19491231 002X'));
    expect(blindIndex(keys, '11010519491231002X')).toMatch(/^[0-9a-f]{32}$/);
    expect(blindIndex(keys, '11010519491231002X')).not.toBe(blindIndex(keys, '110105194912310039'));
  });

  it('should give a different blind index when the key differs', () => {
    const other = createPhiKeys(randomBytes(32), randomBytes(32));
    expect(blindIndex(other, '13800000001')).not.toBe(blindIndex(keys, '13800000001'));
  });

  it('should generate a key file once with mode 600 when the embedded database runs without keys', async () => {
    const dataDir = await tempDir();
    const config = { dataDir, databaseUrl: undefined, phiEncryptionKey: undefined, phiBlindIndexKey: undefined };
    const first = await resolvePhiKeys(config);
    const file = path.join(dataDir, 'keys', 'phi.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = encryptPhi(first, '13800000001');
    const again = await resolvePhiKeys(config);
    expect(decryptPhi(again, stored)).toBe('13800000001');
    expect(blindIndex(again, 'x')).toBe(blindIndex(first, 'x'));
    expect(await readFile(file, 'utf8')).toContain('"currentKeyId": "v1"');
  });

  it('should leave a new DATA_DIR traversable for the embedded PostgreSQL user and lock only keys/', async () => {
    const dataDir = path.join(await tempDir(), 'fresh', 'data');
    await resolvePhiKeys({ dataDir, databaseUrl: undefined, phiEncryptionKey: undefined, phiBlindIndexKey: undefined });
    expect((await stat(dataDir)).mode & 0o001).toBe(0o001);
    expect((await stat(path.join(dataDir, 'keys'))).mode & 0o777).toBe(0o700);
  });

  it('should stop the start with a clear message when DATABASE_URL is set and a key is missing', async () => {
    const dataDir = await tempDir();
    const config = {
      dataDir,
      databaseUrl: 'postgres://x@127.0.0.1/db',
      phiEncryptionKey: undefined,
      phiBlindIndexKey: undefined,
    };
    await expect(resolvePhiKeys(config)).rejects.toThrow(ConfigError);
    await expect(resolvePhiKeys(config)).rejects.toThrow(/PHI_ENCRYPTION_KEY/);
    await expect(resolvePhiKeys({ ...config, phiEncryptionKey: randomBytes(32) })).rejects.toThrow(
      /PHI_BLIND_INDEX_KEY/,
    );
  });

  it('should use the configured keys when both are set', async () => {
    const enc = randomBytes(32);
    const bi = randomBytes(32);
    const k = await resolvePhiKeys({
      dataDir: await tempDir(),
      databaseUrl: 'postgres://x@127.0.0.1/db',
      phiEncryptionKey: enc,
      phiBlindIndexKey: bi,
    });
    expect(blindIndex(k, 'a')).toBe(blindIndex(createPhiKeys(randomBytes(32), bi), 'a'));
    expect(decryptPhi(createPhiKeys(enc, randomBytes(32)), encryptPhi(k, 'a'))).toBe('a');
  });

  it('should read base64 keys of 32 bytes and refuse other lengths when loading the configuration', () => {
    const key = randomBytes(32).toString('base64');
    const c = loadConfig({ PHI_ENCRYPTION_KEY: key, PHI_BLIND_INDEX_KEY: key });
    expect(c.phiEncryptionKey?.toString('base64')).toBe(key);
    expect(() => loadConfig({ PHI_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toThrow(/PHI_ENCRYPTION_KEY/);
    expect(() => loadConfig({ PHI_BLIND_INDEX_KEY: 'not base64!' })).toThrow(ConfigError);
  });
});
