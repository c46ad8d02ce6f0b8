/** Query keys of the follow-up plan pages; every change invalidates `followupKeys.all`. */
export const followupKeys = {
  all: ['followup'] as const,
  plans: ['followup', 'plan', 'list'] as const,
  plan: (id: string) => ['followup', 'plan', 'detail', id] as const,
  assignments: (planId: string) => ['followup', 'assignment', planId] as const,
};
