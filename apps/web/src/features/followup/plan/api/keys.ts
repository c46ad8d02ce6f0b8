/**
 * Query keys of the follow-up plan pages; every change invalidates `planKeys.all` (with the plan list of `src/api`,
 * `followupPlanKeys.list`, and the worklist's `taskKeys`).
 */
export const planKeys = {
  all: ['followup'] as const,
  plan: (id: string) => ['followup', 'plan', 'detail', id] as const,
  assignments: (planId: string) => ['followup', 'assignment', planId] as const,
};
