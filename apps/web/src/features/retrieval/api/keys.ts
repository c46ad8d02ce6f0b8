import type { CohortDefinition } from '@registry/shared/cohort/definition';
import type { CohortRowsRequest } from '@registry/shared/contracts/retrieval';

/**
 * Query keys of the retrieval page: the count by its (debounced) cohort, the result page by cohort, columns, page and
 * sort, the saved queries.
 */
export const retrievalKeys = {
  /** `null`: nothing to count yet (the query is disabled). */
  count: (cohort: CohortDefinition | null) => ['retrieval', 'count', cohort] as const,
  /** `null`: nothing to read yet (the query is disabled). */
  rows: (body: CohortRowsRequest | null) => ['retrieval', 'rows', body] as const,
  queries: ['retrieval', 'query'] as const,
  queryList: ['retrieval', 'query', 'list'] as const,
};
