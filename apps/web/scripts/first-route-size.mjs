// Quality P7 from the build manifest (dist/.vite/manifest.json, build.manifest is on): the gzip JavaScript each
// first route loads before it renders — the entry's static imports plus its layout's, its page's and (for a page
// with permissions) the permission gate's chunks and their static imports — counted on the `.gz` copies the build
// writes. Byte counts of a given build, so the figures are deterministic; the browser's own count (`npm run bench`,
// bench/bundle.mjs) adds the small chunks loaded on demand (menu icons, a state shown lazily).
//
//   node apps/web/scripts/first-route-size.mjs            prints every route against the 400 KiB target
//   node apps/web/scripts/first-route-size.mjs --check    exits 1 when a route of GUARDED is over 400 KiB
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const TARGET_KIB = 400;
const dist = new URL('../dist/', import.meta.url).pathname;
const LOGIN = 'src/features/auth/components/login-page.tsx';
const PERSON = 'src/app/layouts/person-layout.tsx';
const MAIN = 'src/app/layouts/main-layout.tsx';
const GATE = 'src/app/require-permission.tsx';
const page = (feature, file) => `src/features/${feature}/components/${file}.tsx`;

/** The routes of bench/bundle.mjs, each the modules it loads (with the entry). */
export const ROUTES = [
  { route: '/login', modules: [LOGIN] },
  { route: '/login → 登录 → /person/project', modules: [LOGIN, PERSON, page('project', 'project-list-page')] },
  { route: '/person/project', modules: [PERSON, page('project', 'project-list-page')] },
  { route: '/home', modules: [MAIN, page('project', 'home-page')] },
  { route: '/patient/list', modules: [MAIN, GATE, page('patient', 'patient-list-page')] },
  { route: '/patient/add', modules: [MAIN, GATE, page('patient', 'patient-add-page')] },
  { route: '/patient/file', modules: [MAIN, GATE, page('patient-record', 'patient-file-page')] },
  { route: '/patient/edit', modules: [MAIN, GATE, page('patient-record', 'patient-edit-page')] },
  { route: '/followup/list', modules: [MAIN, GATE, page('followup', 'followup-list-page')] },
  { route: '/followup/edit', modules: [MAIN, GATE, page('followup', 'followup-edit-page')] },
];

/** The routes that must stay within the target (--check): every route of ROUTES. */
export const GUARDED = new Set(ROUTES.map(({ route }) => route));

function gzipBytes(file) {
  const path = join(dist, file);
  return existsSync(`${path}.gz`) ? statSync(`${path}.gz`).size : statSync(path).size;
}

/** The gzip KiB and file count of each route of ROUTES in the build at dist/. */
export function measure() {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  return ROUTES.map(({ route, modules }) => {
    const seen = new Set();
    const collect = (key) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`构建清单中没有 ${key}`);
      if (seen.has(key)) return;
      seen.add(key);
      for (const dep of chunk.imports ?? []) collect(dep);
    };
    collect(entry);
    for (const key of modules) collect(key);
    let bytes = 0;
    for (const key of seen) bytes += gzipBytes(manifest[key].file);
    return { route, files: seen.size, gzipKiB: bytes / 1024 };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const rows = measure();
  let failed = 0;
  console.log(`首个路由的 JavaScript（构建清单，gzip），目标 ≤ ${TARGET_KIB} KiB`);
  for (const row of rows) {
    const over = row.gzipKiB > TARGET_KIB;
    const guarded = GUARDED.has(row.route);
    if (over && guarded) failed++;
    const verdict = over
      ? `超出 ${(row.gzipKiB - TARGET_KIB).toFixed(1)} KiB${guarded ? '（守护的路由）' : ''}`
      : '达标';
    console.log(
      `${row.route.padEnd(34)}${String(row.files).padStart(5)}${row.gzipKiB.toFixed(1).padStart(9)} KiB  ${verdict}`,
    );
  }
  if (check && failed > 0) {
    console.error(`${failed} 个已达标的路由超出了 ${TARGET_KIB} KiB（quality.md P7）`);
    process.exit(1);
  }
}
