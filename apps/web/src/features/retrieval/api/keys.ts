import type { CohortDefinition } from '@registry/shared/cohort/definition';

/** Query keys of the retrieval page: the count by its (debounced) cohort, the saved queries. */
export const retrievalKeys = {
  /** `null`: nothing to count yet (the query is disabled). */
  count: (cohort: CohortDefinition | null) => ['retrieval', 'count', cohort] as const,
  queries: ['retrieval', 'query'] as const,
  queryList: ['retrieval', 'query', 'list'] as const,
};
