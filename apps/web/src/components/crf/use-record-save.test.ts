import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import { ApiError } from '../../lib/request';
import { useRecordSave, type SaveJob } from './use-record-save';

type Data = Record<string, unknown>;

function job<T>(data: Data, request: () => Promise<T>, overrides: Partial<SaveJob<T>> = {}): SaveJob<T> {
  return { data, request, onSaved: vi.fn(), onConflict: vi.fn(), onInvalid: vi.fn(), ...overrides };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('useRecordSave', () => {
  it('a 409 is a conflict: the handler runs, and nothing more is sent until reset', async () => {
    const { result } = renderHook(() => useRecordSave());
    const onConflict = vi.fn();
    const data = { a: 1 };
    let outcome: string | undefined;
    await act(async () => {
      outcome = await result.current.save(() =>
        job(data, () => Promise.reject(new ApiError(409, '记录已被他人修改')), { onConflict }),
      );
    });
    expect(outcome).toBe('conflict');
    expect(result.current.saveState).toBe('conflict');
    expect(onConflict).toHaveBeenCalledWith(expect.objectContaining({ status: 409, message: '记录已被他人修改' }));
    expect(result.current.refused(data)).toBe(true);

    const prepare = vi.fn(() => job({ a: 2 }, () => Promise.resolve('ok')));
    await act(async () => {
      outcome = await result.current.save(prepare);
    });
    expect(outcome).toBe('conflict');
    expect(prepare).not.toHaveBeenCalled();

    act(() => result.current.reset());
    expect(result.current.saveState).toBe('idle');
    expect(result.current.refused(data)).toBe(false);
    await act(async () => {
      outcome = await result.current.save(prepare);
    });
    expect(outcome).toBe('saved');
  });

  it('a 400 with issues is invalid, without the issue of the reason', async () => {
    const { result } = renderHook(() => useRecordSave());
    const issues: RecordIssue[] = [
      { path: 'weight', level: 'hard', message: '体重：必须大于 0' } as RecordIssue,
      { path: 'reason', level: 'hard', message: '请填写修改原因' } as RecordIssue,
    ];
    const onInvalid = vi.fn();
    let outcome: string | undefined;
    await act(async () => {
      outcome = await result.current.save(() =>
        job({}, () => Promise.reject(new ApiError(400, '数据有误', { issues })), { onInvalid }),
      );
    });
    expect(outcome).toBe('invalid');
    expect(result.current.saveState).toBe('invalid');
    expect(onInvalid).toHaveBeenCalledWith([issues[0]]);

    await act(async () => {
      outcome = await result.current.save(() => job({}, () => Promise.reject(new ApiError(500, '服务器错误'))));
    });
    expect(outcome).toBe('error');
    expect(result.current.saveState).toBe('error');
  });

  it('a second save waits for the first and then reads the latest data', async () => {
    const { result } = renderHook(() => useRecordSave());
    const first = deferred<string>();
    const order: string[] = [];
    let latest = 'v1';
    let one: Promise<string> | undefined;
    let two: Promise<string> | undefined;
    act(() => {
      one = result.current.save(() =>
        job({ v: latest }, () => first.promise, { onSaved: () => order.push('first saved') }),
      );
    });
    expect(result.current.saveState).toBe('saving');
    const prepare = vi.fn(() => {
      order.push(`second sends ${latest}`);
      return job({ v: latest }, () => Promise.resolve('two'), { onSaved: () => order.push('second saved') });
    });
    act(() => {
      two = result.current.save(prepare);
    });
    latest = 'v2';
    await act(async () => {
      await Promise.resolve();
    });
    expect(prepare).not.toHaveBeenCalled();
    await act(async () => {
      first.resolve('one');
      await Promise.all([one, two]);
    });
    expect(order).toEqual(['first saved', 'second sends v2', 'second saved']);
    expect(result.current.saveState).toBe('saved');
  });

  it('refuse remembers the data and sets the state invalid', () => {
    const { result } = renderHook(() => useRecordSave());
    const data = { a: 1 };
    act(() => {
      expect(result.current.refuse(data)).toBe('invalid');
    });
    expect(result.current.saveState).toBe('invalid');
    expect(result.current.refused(data)).toBe(true);
    expect(result.current.refused({ a: 1 })).toBe(false);
  });
});
