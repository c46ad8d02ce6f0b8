import type { TaskFilter, TaskPageRequest } from '@registry/shared/contracts/followup';
import { diffDays, shanghaiDate, type TaskState } from '@registry/shared/followup/schedule';

/**
 * The worklist's state, split by where it may live (no PHI in URLs): tab, page, size and the filters owner, center,
 * plan, visit and due dates are in the address (`?tab=overdue&owner=me&page=2`); the keyword (it may be a name) is
 * kept in memory only.
 */
export const WORKLIST_TABS = ['due', 'overdue', 'upcoming', 'done', 'lost'] as const satisfies readonly TaskState[];
export type WorklistTab = (typeof WORKLIST_TABS)[number];

export type WorklistUrl = {
  tab: WorklistTab;
  current: number;
  size: number;
  owner?: string;
  centerId?: string;
  planId?: string;
  visitId?: string;
  dueFrom?: string;
  dueTo?: string;
};

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

const ID = /^[0-9A-Za-z-]{1,64}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const positiveInt = (value: string | null): number | undefined => {
  if (!value || !/^\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
};
const idParam = (value: string | null) => (value && ID.test(value) ? value : undefined);
const dateParam = (value: string | null) => (value && ISO_DATE.test(value) ? value : undefined);

/** The address's query as the worklist's state; anything malformed is dropped (an old or edited link still opens). */
export function parseWorklistUrl(params: URLSearchParams): WorklistUrl {
  // `state=` is what older links (the home page's first cards) used for the tab.
  const tab = params.get('tab') ?? params.get('state');
  const size = positiveInt(params.get('size'));
  const url: WorklistUrl = {
    tab: (WORKLIST_TABS as readonly string[]).includes(tab ?? '') ? (tab as WorklistTab) : 'due',
    current: positiveInt(params.get('page')) ?? 1,
    size: size && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
  const owner = params.get('owner');
  if (owner === 'me' || owner === 'none') url.owner = owner;
  else if (idParam(owner)) url.owner = owner ?? undefined;
  url.centerId = idParam(params.get('center'));
  url.planId = idParam(params.get('plan'));
  url.visitId = url.planId ? idParam(params.get('visit')) : undefined;
  url.dueFrom = dateParam(params.get('from'));
  url.dueTo = dateParam(params.get('to'));
  for (const key of Object.keys(url) as (keyof WorklistUrl)[]) if (url[key] === undefined) delete url[key];
  return url;
}

/** The worklist's state as the address's query (defaults left out, so the plain worklist has a plain address). */
export function toWorklistSearch(url: WorklistUrl): URLSearchParams {
  const params = new URLSearchParams();
  if (url.tab !== 'due') params.set('tab', url.tab);
  if (url.current > 1) params.set('page', String(url.current));
  if (url.size !== DEFAULT_PAGE_SIZE) params.set('size', String(url.size));
  if (url.owner) params.set('owner', url.owner);
  if (url.centerId) params.set('center', url.centerId);
  if (url.planId) params.set('plan', url.planId);
  if (url.planId && url.visitId) params.set('visit', url.visitId);
  if (url.dueFrom) params.set('from', url.dueFrom);
  if (url.dueTo) params.set('to', url.dueTo);
  return params;
}

/** The filters of counts, page and export (without tab and paging). */
export function toTaskFilter(url: WorklistUrl, keyword: string | undefined): TaskFilter {
  const filter: TaskFilter = {};
  if (url.owner) filter.owner = url.owner;
  if (url.centerId) filter.centerId = url.centerId;
  if (url.planId) filter.planId = url.planId;
  if (url.planId && url.visitId) filter.visitId = url.visitId;
  if (keyword) filter.keyword = keyword;
  if (url.dueFrom) filter.dueFrom = url.dueFrom;
  if (url.dueTo) filter.dueTo = url.dueTo;
  return filter;
}

export function toTaskPageRequest(url: WorklistUrl, keyword: string | undefined): TaskPageRequest {
  return { current: url.current, size: url.size, ...toTaskFilter(url, keyword), state: url.tab };
}

export function isFiltered(url: WorklistUrl, keyword: string | undefined): boolean {
  return Boolean(url.owner || url.centerId || url.planId || url.dueFrom || url.dueTo || keyword);
}

/** Today's calendar date in Asia/Shanghai (the dates of the schedule). */
export function today(): string {
  return shanghaiDate(new Date());
}

/** How the window stands, for the worklist and the task header: 还剩N天 / 超窗N天 / N天后开始. */
export function windowHint(
  task: { state: TaskState; windowStart: string; windowEnd: string },
  on: string,
): { text: string; tone: 'danger' | 'warning' | 'secondary' } | null {
  if (task.state === 'overdue') return { text: `超窗${diffDays(task.windowEnd, on)}天`, tone: 'danger' };
  if (task.state === 'due') {
    const left = diffDays(on, task.windowEnd);
    return { text: left === 0 ? '今天截止' : `还剩${left}天`, tone: left <= 2 ? 'warning' : 'secondary' };
  }
  if (task.state === 'upcoming') return { text: `${diffDays(on, task.windowStart)}天后开始`, tone: 'secondary' };
  return null;
}
