import { z } from 'zod';
import { cohortDefinition } from '../cohort/definition';

/**
 * Retrieval (`/retrieval`, issue 15): questions asked of the current project's patients by a cohort definition
 * (`cohort/definition.ts`). Base `retrieval`.
 */

/** `POST retrieval/count`: how many of the caller's patients (their scope: project, sub-project, center) match. */
export const cohortCountRequest = z.object({ cohort: cohortDefinition });
export type CohortCountRequest = z.input<typeof cohortCountRequest>;

export const cohortCountResponse = z.object({
  /** The patients of the caller's scope the cohort selects. */
  count: z.number().int(),
  /** The patients of the caller's scope (the denominator). */
  total: z.number().int(),
});
export type CohortCountResponse = z.infer<typeof cohortCountResponse>;
