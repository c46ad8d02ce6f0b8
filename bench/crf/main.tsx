import { Profiler, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'antd/dist/antd.css';
import { CrfForm } from '../../apps/web/src/components/crf/crf-form';
import { THEME } from '../../apps/web/src/config/theme';
import { BENCH_NUMBER_KEY, generateBenchDefinition } from './generate-definition';

dayjs.locale('zh-cn');

declare global {
  // Read by bench/crf-render.mjs through Playwright.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Window {
    __crfLatencies: number[];
    __crfEventTimings: { name: string; duration: number; interactionId: number }[];
    __crfFieldCount: number;
    __crfCommits: { phase: string; actual: number; base: number }[];
    __crfShowIfLatencies: number[];
  }
}

const definition = generateBenchDefinition(300);
const form = definition.categories[0]?.forms[0];
if (!form) throw new Error('基准表单生成失败');
window.__crfFieldCount = form.fields.length;
// React's own figures per commit: `actual` is the time spent rendering, `base` what rendering everything would cost.
window.__crfCommits = [];

// Keystroke latency: from the key event to the first task after the next frame (the frame that shows the change).
window.__crfLatencies = [];
document.addEventListener(
  'keydown',
  (event) => {
    const start = event.timeStamp;
    requestAnimationFrame(() => {
      setTimeout(() => window.__crfLatencies.push(performance.now() - start), 0);
    });
  },
  true,
);
// Show-if latency: from the key event to the frame in which a field depending on the number field appears or goes.
const probe = form.fields.find(
  (f) => f.showIf === `[${BENCH_NUMBER_KEY}] > 100` && !['section', 'description', 'group'].includes(f.type),
);
window.__crfShowIfLatencies = [];
if (probe) {
  const present = () => document.querySelector(`[aria-label="${probe.label}"]`) !== null;
  let keystroke = 0;
  document.addEventListener(
    'keydown',
    (event) => {
      const start = event.timeStamp;
      const before = present();
      const own = ++keystroke;
      const check = () => {
        if (own !== keystroke) return; // a later key took over
        if (present() !== before) {
          setTimeout(() => window.__crfShowIfLatencies.push(performance.now() - start), 0);
        } else if (performance.now() - start < 2000) {
          requestAnimationFrame(check);
        }
      };
      requestAnimationFrame(check);
    },
    true,
  );
}
// The browser's own view (Event Timing API): only interactions of 16 ms or more are reported.
window.__crfEventTimings = [];
try {
  new PerformanceObserver((list) => {
    // interactionId is newer than TypeScript's DOM library.
    for (const entry of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
      window.__crfEventTimings.push({
        name: entry.name,
        duration: entry.duration,
        interactionId: entry.interactionId ?? 0,
      });
    }
  }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
} catch {
  // Event Timing is not available: the keydown → frame figure stands alone.
}

function Bench() {
  const [value, setValue] = useState<Record<string, unknown>>({});
  useEffect(() => {
    // The first commit is on screen with the frame after it: from then on the form answers input.
    requestAnimationFrame(() => performance.mark('crf-interactive'));
  }, []);
  return (
    <ConfigProvider locale={zhCN} theme={THEME}>
      <div style={{ maxWidth: 960, margin: '0 auto', padding: 24 }}>
        <Profiler id="crf" onRender={(_id, phase, actual, base) => window.__crfCommits.push({ phase, actual, base })}>
          <CrfForm
            form={form as NonNullable<typeof form>}
            definition={definition}
            value={value}
            onChange={setValue}
            onFullyRendered={() => requestAnimationFrame(() => performance.mark('crf-complete'))}
          />
        </Profiler>
      </div>
    </ConfigProvider>
  );
}

const root = document.getElementById('root');
// Script loaded and parsed: what follows is React and antd rendering the form.
performance.mark('crf-render-start');
if (root) createRoot(root).render(<Bench />);
