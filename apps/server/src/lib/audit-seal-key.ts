import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AppConfig } from '../config/config';
import { ConfigError } from '../config/config';
import { keysFolder, readOrCreateSecretFile } from './secret-file';

/** The key of the audit seals (ADR 0013): 32 bytes, never stored in the database. */
export type AuditSealKey = { readonly key: Buffer };

/** Where the embedded database keeps a generated key: beside the PHI keys. */
export function auditSealKeyFile(dataDir: string): string {
  return path.join(dataDir, 'keys', 'audit-seal.json');
}

function parseKeyFile(text: string, file: string): AuditSealKey {
  let key: Buffer | undefined;
  try {
    const parsed = JSON.parse(text) as { key?: unknown };
    key = Buffer.from(String(parsed.key ?? ''), 'base64');
  } catch {
    key = undefined;
  }
  if (!key || key.length !== 32) throw new ConfigError([`密钥文件 ${file} 格式不正确`]);
  return { key };
}

/**
 * The audit seal key of this instance, as the PHI keys are resolved (lib/phi-crypto.ts): AUDIT_SEAL_KEY when set;
 * with DATABASE_URL set and no key, the start stops with a ConfigError (a production trail must not be sealed with a
 * key nobody keeps); on the embedded database without it, `DATA_DIR/keys/audit-seal.json` (mode 600) is generated
 * once and read at every later start.
 */
export async function resolveAuditSealKey(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'auditSealKey'>,
): Promise<AuditSealKey> {
  if (config.auditSealKey) return { key: config.auditSealKey };
  if (config.databaseUrl)
    throw new ConfigError([
      '使用 DATABASE_URL 时须设置 AUDIT_SEAL_KEY（base64 编码的 32 字节密钥，openssl rand -base64 32），否则无法封存审计日志',
    ]);
  await keysFolder(config.dataDir);
  const file = auditSealKeyFile(config.dataDir);
  const text = await readOrCreateSecretFile(
    file,
    () => `${JSON.stringify({ key: randomBytes(32).toString('base64') }, null, 2)}\n`,
  );
  return parseKeyFile(text, file);
}
