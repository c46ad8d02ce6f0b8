import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AppConfig } from '../config/config';
import { ConfigError } from '../config/config';
import { keysFolder, readOrCreateSecretFile } from './secret-file';

/**
 * Encryption at rest of identified patient data (identity number, phone): AES-256-GCM with a fresh random 12-byte IV
 * per value and the 16-byte auth tag, stored as `<keyId>:<iv>:<tag>:<ciphertext>` (base64 parts). The key id names the
 * key so it can rotate: new values use `currentKeyId`, old values still decrypt with their own key.
 *
 * Exact search and duplicate detection use a keyed blind index: HMAC-SHA256 with a separate key over the normalised
 * value (uppercase, no whitespace), truncated to 16 bytes, hex.
 */
export type PhiKeys = {
  currentKeyId: string;
  encryptionKeys: ReadonlyMap<string, Buffer>;
  blindIndexKey: Buffer;
};

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BLIND_INDEX_BYTES = 16;
const KEY_ID = /^[a-z0-9]{1,16}$/;

export class PhiCryptoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhiCryptoError';
  }
}

function checkKey(key: Buffer, what: string): void {
  if (key.length !== 32) throw new PhiCryptoError(`${what} must be 32 bytes`);
}

export function createPhiKeys(encryptionKey: Buffer, blindIndexKey: Buffer, keyId = 'v1'): PhiKeys {
  checkKey(encryptionKey, 'encryption key');
  checkKey(blindIndexKey, 'blind index key');
  if (!KEY_ID.test(keyId)) throw new PhiCryptoError('bad key id');
  return { currentKeyId: keyId, encryptionKeys: new Map([[keyId, encryptionKey]]), blindIndexKey };
}

/** Encrypts one value with the current key; every call uses a new random IV. */
export function encryptPhi(keys: PhiKeys, plaintext: string): string {
  const key = keys.encryptionKeys.get(keys.currentKeyId);
  if (!key) throw new PhiCryptoError('current key missing');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [keys.currentKeyId, iv.toString('base64'), tag.toString('base64'), ct.toString('base64')].join(':');
}

/** Decrypts a value of `encryptPhi`; a tampered, truncated or foreign-key value throws PhiCryptoError. */
export function decryptPhi(keys: PhiKeys, stored: string): string {
  const parts = stored.split(':');
  if (parts.length !== 4) throw new PhiCryptoError('malformed ciphertext');
  const [keyId, ivB64, tagB64, ctB64] = parts as [string, string, string, string];
  const key = keys.encryptionKeys.get(keyId);
  if (!key) throw new PhiCryptoError(`unknown key ${keyId}`);
  const iv = Buffer.from(ivB64, 'base64');
  const tag = Buffer.from(tagB64, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new PhiCryptoError('malformed ciphertext');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctB64, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new PhiCryptoError('ciphertext refused (authentication failed)');
  }
}

/** Uppercase, all whitespace removed: `110101 1990 0307 123x` and `110101199003071234X` index alike. */
export function normalisePhi(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** The keyed blind index of a value (32 hex characters). */
export function blindIndex(keys: PhiKeys, value: string): string {
  return createHmac('sha256', keys.blindIndexKey)
    .update(normalisePhi(value), 'utf8')
    .digest()
    .subarray(0, BLIND_INDEX_BYTES)
    .toString('hex');
}

type KeyFile = { currentKeyId: string; encryptionKeys: Record<string, string>; blindIndexKey: string };

function parseKeyFile(text: string, file: string): PhiKeys {
  const problem = `密钥文件 ${file} 格式不正确`;
  let parsed: KeyFile;
  try {
    parsed = JSON.parse(text) as KeyFile;
  } catch {
    throw new ConfigError([problem]);
  }
  const map = new Map<string, Buffer>();
  for (const [id, b64] of Object.entries(parsed.encryptionKeys ?? {})) {
    const key = Buffer.from(String(b64), 'base64');
    if (!KEY_ID.test(id) || key.length !== 32) throw new ConfigError([problem]);
    map.set(id, key);
  }
  const bi = Buffer.from(String(parsed.blindIndexKey ?? ''), 'base64');
  if (!map.has(parsed.currentKeyId) || bi.length !== 32) throw new ConfigError([problem]);
  return { currentKeyId: parsed.currentKeyId, encryptionKeys: map, blindIndexKey: bi };
}

/**
 * The PHI keys of this instance. From PHI_ENCRYPTION_KEY and PHI_BLIND_INDEX_KEY when set (both are needed); with
 * DATABASE_URL set and a key missing, the start stops with a ConfigError. On the embedded database without keys, a
 * key file `DATA_DIR/keys/phi.json` (mode 600) is generated once and read at every later start.
 */
export async function resolvePhiKeys(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'phiEncryptionKey' | 'phiBlindIndexKey'>,
): Promise<PhiKeys> {
  if (config.phiEncryptionKey && config.phiBlindIndexKey)
    return createPhiKeys(config.phiEncryptionKey, config.phiBlindIndexKey);
  if (config.phiEncryptionKey || config.phiBlindIndexKey)
    throw new ConfigError(['PHI_ENCRYPTION_KEY 和 PHI_BLIND_INDEX_KEY 须同时设置']);
  if (config.databaseUrl)
    throw new ConfigError([
      '使用 DATABASE_URL 时须设置 PHI_ENCRYPTION_KEY 和 PHI_BLIND_INDEX_KEY（各为 base64 编码的 32 字节密钥，openssl rand -base64 32），否则无法加密患者身份信息',
    ]);
  const file = path.join(await keysFolder(config.dataDir), 'phi.json');
  const text = await readOrCreateSecretFile(file, () => {
    const created: KeyFile = {
      currentKeyId: 'v1',
      encryptionKeys: { v1: randomBytes(32).toString('base64') },
      blindIndexKey: randomBytes(32).toString('base64'),
    };
    return `${JSON.stringify(created, null, 2)}\n`;
  });
  return parseKeyFile(text, file);
}
