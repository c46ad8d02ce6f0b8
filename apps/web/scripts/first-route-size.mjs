// Prints the gzip size of the JavaScript the first route (/login) loads: the entry's static imports plus the
// login page's lazy chunk and its static imports (or the lazy modules named as arguments, e.g. a layout and a page). Reads dist/.vite/manifest.json (build.manifest is on).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const seen = new Set();

function collect(key) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const dep of chunk.imports ?? []) collect(dep);
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
collect(entry);
const routes = process.argv.length > 2 ? process.argv.slice(2) : ['src/features/auth/components/login-page.tsx'];
for (const route of routes) collect(route);

let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  const size = gzipSync(readFileSync(join(dist, file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  total gzip (entry + ${routes.join(' + ')})`);
