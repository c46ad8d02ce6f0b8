import type { TaskFilter, TaskPageRequest } from '@registry/shared/contracts/followup';

/** Query keys of the follow-up pages: a change to a task makes the worklist, its counts and the task stale. */
export const taskKeys = {
  all: ['followup'] as const,
  tasks: ['followup', 'task'] as const,
  page: (body: TaskPageRequest) => ['followup', 'task', 'page', body] as const,
  counts: (body: TaskFilter) => ['followup', 'task', 'counts', body] as const,
  detail: (id: string) => ['followup', 'task', 'detail', id] as const,
};
