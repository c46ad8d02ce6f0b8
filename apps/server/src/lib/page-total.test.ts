import { describe, expect, it, vi } from 'vitest';
import { pageTotal } from './page-total';

describe('pageTotal', () => {
  it('should answer offset + rows without counting when the page is not full', async () => {
    const count = vi.fn(async () => 999);
    expect(await pageTotal({ offset: 40, size: 20, rows: 7 }, count)).toBe(47);
    expect(await pageTotal({ offset: 0, size: 20, rows: 19 }, count)).toBe(19);
    expect(await pageTotal({ offset: 0, size: 20, rows: 0 }, count)).toBe(0);
    expect(count).not.toHaveBeenCalled();
  });

  it('should count when the page is full, and when a page past the first is empty', async () => {
    const count = vi.fn(async () => 61);
    expect(await pageTotal({ offset: 40, size: 20, rows: 20 }, count)).toBe(61);
    expect(await pageTotal({ offset: 100, size: 20, rows: 0 }, count)).toBe(61);
    expect(count).toHaveBeenCalledTimes(2);
  });
});
