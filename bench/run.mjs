/**
 * `npm run bench`: runs every benchmark in turn and prints their figures and ratios to the targets of quality.md.
 * Timings are printed, never asserted. Exit code 1 when a benchmark could not run (e.g. Chromium missing).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { cpus, loadavg } from 'node:os';

const HERE = dirname(fileURLToPath(import.meta.url));
const BENCHES = [
  { name: '表单引擎（Node）', args: ['--import', 'tsx', join(HERE, 'engine.ts')] },
  { name: 'CRF 渲染 P8（Chromium）', args: [join(HERE, 'crf-render.mjs')] },
  // P7: builds the app, serves it with the real server (embedded PostgreSQL, demo data) and loads each first route.
  { name: '首个路由的 JavaScript P7（Chromium）', args: [join(HERE, 'bundle.mjs')] },
  // P1–P3 and P5 on seeded databases: BENCH_SIZES (default 100000), BENCH_TARGETS (default embedded,pg); see
  // records.ts (--expose-gc: P5's memory is measured from a collected heap)
  {
    name: '患者列表、详情、表单保存与导出 P1–P3、P5（PostgreSQL）',
    args: ['--expose-gc', '--import', 'tsx', join(HERE, 'records.ts')],
  },
];

/** Every figure is printed beside the machine's load: on a busy machine contention compresses every ratio. */
function load() {
  return `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}（${cpus().length} 核）`;
}

let failed = 0;
for (const bench of BENCHES) {
  console.log(`\n== ${bench.name} ==  ${load()}`);
  const result = spawnSync(process.execPath, bench.args, { stdio: 'inherit', cwd: join(HERE, '..') });
  console.log(`-- ${bench.name} 结束  ${load()}`);
  if (result.status !== 0) {
    failed++;
    console.error(`${bench.name}：未能完成（退出码 ${result.status ?? result.signal}）`);
  }
}
process.exit(failed > 0 ? 1 : 0);
