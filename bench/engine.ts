/**
 * Engine-only figures on the 300-field benchmark form (Node, no DOM): evaluateForm and validateRecord per call, each
 * on a fresh data object (as after a keystroke). Prints figures; asserts nothing.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { checkDefinition } from '@registry/shared/forms/check';
import { evaluateForm, validateRecord } from '@registry/shared/forms/record';
import { PATTERN_VALUE_MAX_LENGTH } from '@registry/shared/forms/pattern-limits';
import { BENCH_TEXT_KEY, generateBenchDefinition, generateBenchRecord } from './crf/generate-definition';

const definition = generateBenchDefinition(300);
const form = definition.categories[0]?.forms[0];
if (!form) throw new Error('基准表单生成失败');
const problems = checkDefinition(definition);
if (problems.length > 0) {
  throw new Error(`基准表单有问题：${problems.map((p) => `${p.path} ${p.message}`).join('；')}`);
}
const record = generateBenchRecord(form);
const missingCodes = definition.missingCodes.map((c) => c.code);
const today = '2026-01-01';

function measure(name: string, run: (data: Record<string, unknown>) => unknown, iterations = 400) {
  for (let i = 0; i < 50; i++) run({ ...record, [BENCH_TEXT_KEY]: `预热${i}` });
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const data = { ...record, [BENCH_TEXT_KEY]: `输入${i}` };
    const t0 = performance.now();
    run(data);
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  const pick = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { name, median: pick(0.5), p95: pick(0.95) };
}

const rows = [
  measure('evaluateForm', (data) => evaluateForm(form, data, { today, missingCodes })),
  measure('validateRecord (submit)', (data) => validateRecord(form, data, { mode: 'submit', today, missingCodes })),
  measure('validateRecord (draft)', (data) => validateRecord(form, data, { mode: 'draft', today, missingCodes })),
];

const withShowIf = form.fields.filter((f) => f.showIf).length;
const calcs = form.fields.filter((f) => f.type === 'calc').length;
console.log(
  `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}（${cpus().length} 核）`,
);
console.log(
  `引擎（Node ${process.version}，${form.fields.length} 个字段，其中 ${withShowIf} 个有显示条件、${calcs} 个计算字段；` +
    '每次调用新的数据对象）',
);
console.log(['函数'.padEnd(26), 'median µs/call'.padStart(16), 'p95 µs/call'.padStart(14)].join(''));
for (const r of rows) {
  console.log([r.name.padEnd(26), r.median.toFixed(0).padStart(16), r.p95.toFixed(0).padStart(14)].join(''));
}

// Text patterns run in RE2 (linear time): a hostile pattern on a value at the length limit costs about what a benign
// one does. The ceiling beside it is the same check on the benign pattern, prepared the same way.
const patternForm = (regex: string) => ({
  key: 'f',
  title: '表单',
  fields: [
    {
      key: 'code',
      label: '编码',
      type: 'text' as const,
      pattern: { regex, message: '格式错误', level: 'hard' as const },
    },
  ],
});
const limit = PATTERN_VALUE_MAX_LENGTH - 1;
const patterns: [string, string][] = [
  ['^[a-z]+$（良性）', 'a'.repeat(limit) + '!'],
  ['^a*a*a*a*a*a*a*a*a*a*a*a*$', 'a'.repeat(limit) + '!'],
  ['(.*a){12}', 'a'.repeat(limit) + '!'],
  ['(a+)+$', 'a'.repeat(limit) + '!'],
  ['(x+x+)+y', 'x'.repeat(limit + 1)],
];
const patternRows = patterns.map(([label, value]) => {
  const regex = label.replace('（良性）', '');
  const patternFormDef = patternForm(regex);
  return measure(label, () => validateRecord(patternFormDef, { code: value }, { mode: 'submit' }), 200);
});
const benign = patternRows[0]?.median ?? NaN;
console.log(`\n文本格式（RE2，值 ${limit + 1} 个字符；倍数 = 中位数 / 良性模式的中位数）`);
console.log(['模式'.padEnd(30), 'median µs'.padStart(12), 'p95 µs'.padStart(10), '倍数'.padStart(8)].join(''));
for (const r of patternRows) {
  console.log(
    [
      r.name.padEnd(30),
      r.median.toFixed(0).padStart(12),
      r.p95.toFixed(0).padStart(10),
      (r.median / benign).toFixed(1).padStart(8),
    ].join(''),
  );
}
