import { vi } from 'vitest';
import { registerToast } from '../lib/toast';

export type ToastCall = [kind: 'success' | 'error' | 'warning' | 'info' | 'destroy', content?: string];

/** Registers a recording toast instance and returns the ordered list of calls made to it. */
export function recordToasts(): ToastCall[] {
  const calls: ToastCall[] = [];
  const record = (kind: ToastCall[0]) =>
    vi.fn((content?: unknown) => {
      calls.push(kind === 'destroy' ? [kind] : [kind, String(content)]);
      return Object.assign(Promise.resolve(true), { then: Promise.prototype.then }) as never;
    });
  registerToast({
    success: record('success'),
    error: record('error'),
    warning: record('warning'),
    info: record('info'),
    loading: record('info'),
    open: record('info'),
    destroy: record('destroy'),
  } as never);
  return calls;
}
