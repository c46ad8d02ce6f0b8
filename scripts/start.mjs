#!/usr/bin/env node
// `npm start`: build what is missing (or stale), then run the server, which starts the embedded PostgreSQL
// (unless DATABASE_URL is set), migrates, seeds the demo data once and serves the API and the web app.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Newest modification time of any file below `dir` (skipping node_modules and dist). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function stale(output, ...sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => newest(join(root, source)) > built);
}

function run(args) {
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const webOut = join(root, 'apps/web/dist/index.html');
const serverOut = join(root, 'apps/server/dist/main.js');
if (stale(webOut, 'apps/web', 'packages/shared')) {
  console.log('构建前端 (apps/web)…');
  run(['run', 'build', '-w', 'apps/web']);
}
if (stale(serverOut, 'apps/server/src', 'packages/shared')) {
  console.log('构建服务端 (apps/server)…');
  run(['run', 'build', '-w', 'apps/server']);
}

const child = spawn(process.execPath, ['--enable-source-maps', serverOut], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
