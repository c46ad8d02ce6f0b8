import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_BASE, APP_CODE } from '@registry/shared/constants';
import { findFreePort } from './free-port';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

export type ServerProcess = {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` + API base. */
  api: string;
  /** What the process wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Waits until `GET health` answers 200 (or throws with the output after `ms`). */
  waitHealthy(ms: number): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
};

/** Fixed test keys (the PHI pair and the audit seal key): a server on DATABASE_URL requires them. */
export const TEST_PHI_ENV = {
  PHI_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  PHI_BLIND_INDEX_KEY: Buffer.alloc(32, 9).toString('base64'),
  AUDIT_SEAL_KEY: Buffer.alloc(32, 11).toString('base64'),
};

/** Runs the real server (`src/main.ts` under tsx) as a child process with `env` on a free port. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      CAPTCHA_ENABLED: 'false',
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const api = `http://127.0.0.1:${port}${API_BASE}`;
  return {
    child,
    api,
    output: () => out,
    alive,
    async waitHealthy(ms) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline && alive()) {
        try {
          const res = await fetch(`${api}/health`, { headers: { 'x-app-code': APP_CODE } });
          if (res.status === 200) return;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`server not healthy (alive: ${alive()}):\n${out.slice(-4000)}`);
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
