import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config';
import { auditSealKeyFile, resolveAuditSealKey } from './audit-seal-key';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'audit-seal-key-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('the audit seal key', () => {
  it('should generate a key file once on the embedded database and read the same key at every later start', async () => {
    const dataDir = await tempDir();
    const config = { dataDir, databaseUrl: undefined, auditSealKey: undefined };
    const first = await resolveAuditSealKey(config);
    const again = await resolveAuditSealKey(config);
    expect(first.key).toHaveLength(32);
    expect(again.key.equals(first.key)).toBe(true);
    expect((await stat(auditSealKeyFile(dataDir))).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(auditSealKeyFile(dataDir), 'utf8')) as { key: string };
    expect(Buffer.from(stored.key, 'base64').equals(first.key)).toBe(true);
  });

  it('should stop the start with a message naming AUDIT_SEAL_KEY when DATABASE_URL is set without it', async () => {
    const config = { dataDir: await tempDir(), databaseUrl: 'postgres://x@127.0.0.1/db', auditSealKey: undefined };
    await expect(resolveAuditSealKey(config)).rejects.toThrow(ConfigError);
    await expect(resolveAuditSealKey(config)).rejects.toThrow(/AUDIT_SEAL_KEY/);
  });

  it('should use AUDIT_SEAL_KEY when set, and refuse a key of another length', async () => {
    const key = randomBytes(32).toString('base64');
    const config = loadConfig({ AUDIT_SEAL_KEY: key, DATABASE_URL: 'postgres://x@127.0.0.1/db' });
    expect((await resolveAuditSealKey(config)).key.toString('base64')).toBe(key);
    expect(() => loadConfig({ AUDIT_SEAL_KEY: randomBytes(16).toString('base64') })).toThrow(/AUDIT_SEAL_KEY/);
  });
});
