import { describe, expect, it } from 'vitest';
import {
  parseWorklistUrl,
  toTaskFilter,
  toTaskPageRequest,
  toWorklistSearch,
  windowHint,
  type WorklistUrl,
} from './worklist-query';

const PLAN = '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98';
const VISIT = '5b4a3928-1706-4f5e-8d4c-3b2a19087f6e';

describe('worklist query', () => {
  it('should open on 待随访, page 1, 20 rows with a plain address', () => {
    const url = parseWorklistUrl(new URLSearchParams());
    expect(url).toEqual({ tab: 'due', current: 1, size: 20 });
    expect(toWorklistSearch(url).toString()).toBe('');
  });

  it('should round-trip tab, page, size and filters through the address', () => {
    const url: WorklistUrl = {
      tab: 'overdue',
      current: 3,
      size: 50,
      owner: 'me',
      centerId: 'c-2',
      planId: PLAN,
      visitId: VISIT,
      dueFrom: '2026-11-01',
      dueTo: '2026-11-30',
    };
    expect(parseWorklistUrl(toWorklistSearch(url))).toEqual(url);
  });

  it('should drop what is malformed: an unknown tab, a bad size, a visit without plan, a bad date', () => {
    const url = parseWorklistUrl(new URLSearchParams('tab=cancelled&size=7&page=-2&visit=v1&from=2026-1-1&owner=a b'));
    expect(url).toEqual({ tab: 'due', current: 1, size: 20 });
  });

  it('should build the page and counts bodies with the in-memory keyword', () => {
    const url: WorklistUrl = { tab: 'done', current: 2, size: 20, owner: 'none', planId: PLAN };
    expect(toTaskFilter(url, '张三')).toEqual({ owner: 'none', planId: PLAN, keyword: '张三' });
    expect(toTaskPageRequest(url, undefined)).toEqual({
      current: 2,
      size: 20,
      owner: 'none',
      planId: PLAN,
      state: 'done',
    });
  });

  it('should say how the window stands', () => {
    const task = { windowStart: '2026-11-20', windowEnd: '2026-11-27' };
    expect(windowHint({ ...task, state: 'due' }, '2026-11-24')).toEqual({ text: '还剩3天', tone: 'secondary' });
    expect(windowHint({ ...task, state: 'due' }, '2026-11-26')).toEqual({ text: '还剩1天', tone: 'warning' });
    expect(windowHint({ ...task, state: 'due' }, '2026-11-27')).toEqual({ text: '今天截止', tone: 'warning' });
    expect(windowHint({ ...task, state: 'overdue' }, '2026-12-02')).toEqual({ text: '超窗5天', tone: 'danger' });
    expect(windowHint({ ...task, state: 'upcoming' }, '2026-11-10')).toEqual({ text: '10天后开始', tone: 'secondary' });
    expect(windowHint({ ...task, state: 'done' }, '2026-11-24')).toBeNull();
  });
});
