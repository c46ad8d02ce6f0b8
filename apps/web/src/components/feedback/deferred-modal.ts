import type { FeedbackModal } from './feedback-context';

type Kind = keyof FeedbackModal;
type Instance = ReturnType<FeedbackModal['confirm']>;
type Config = Parameters<FeedbackModal['confirm']>[0];
type Update = Parameters<Instance['update']>[0];

const KINDS: readonly Kind[] = ['info', 'success', 'error', 'warning', 'confirm'];

/**
 * A modal API with antd's hook API's shape whose calls wait for the real one: `load()` is asked for it on the first
 * call, and `ready(modal)` runs the calls made meanwhile. Each call's instance forwards `update`, `destroy` and `then`
 * to the real instance once it exists.
 */
export function deferredModal(load: () => void): { modal: FeedbackModal; ready: (modal: FeedbackModal) => void } {
  let real: FeedbackModal | null = null;
  let waiting: (() => void)[] = [];

  const call = (kind: Kind, config: Config): Instance => {
    if (real) return real[kind](config);
    let inner: Instance | null = null;
    let destroyed = false;
    const updates: Update[] = [];
    let resolveConfirmed: (confirmed: boolean) => void = () => undefined;
    const confirmed = new Promise<boolean>((resolve) => (resolveConfirmed = resolve));
    let awaited = false;
    waiting.push(() => {
      if (destroyed || !real) return resolveConfirmed(false);
      inner = real[kind](config);
      for (const update of updates) inner.update(update);
      if (awaited) void inner.then(resolveConfirmed, () => undefined);
    });
    load();
    return {
      destroy: () => {
        if (inner) inner.destroy();
        else destroyed = true;
      },
      update: (update: Update) => {
        if (inner) inner.update(update);
        else updates.push(update);
      },
      then: (resolve, reject) => {
        if (inner) return inner.then(resolve, reject);
        awaited = true;
        return confirmed.then(resolve, reject);
      },
    } as Instance;
  };

  const modal = Object.fromEntries(
    KINDS.map((kind) => [kind, (config: Config) => call(kind, config)]),
  ) as unknown as FeedbackModal;

  return {
    modal,
    ready: (next) => {
      real = next;
      const calls = waiting;
      waiting = [];
      for (const run of calls) run();
    },
  };
}
