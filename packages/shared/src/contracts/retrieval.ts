import { z } from 'zod';
import { cohortDefinition } from '../cohort/definition';
import { page, pageRequest } from './envelope';
import { int4 } from './fields';

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

// ---- saved queries (`retrieval/query`) ---------------------------------------------------------------------------

const queryName = z.string('请输入检索名称').trim().min(1, '请输入检索名称').max(100, '检索名称不能超过100个字符');
const queryDescription = z.string().trim().max(500, '说明不能超过500个字符');

/** A saved cohort query of the current project: the caller's own, or one another member shared. */
export const savedQueryVO = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Shared with the project's members who may retrieve (they may run and copy it; only its owner edits it). */
  shared: z.boolean(),
  /** The caller owns it. */
  mine: z.boolean(),
  ownerName: z.string(),
  cohort: cohortDefinition,
  rowVersion: z.number().int(),
  updatedAt: z.string(),
});
export type SavedQueryVO = z.infer<typeof savedQueryVO>;

export const savedQueryListResponse = z.array(savedQueryVO);

export const savedQueryCreateRequest = z.object({
  name: queryName,
  description: queryDescription.optional(),
  shared: z.boolean().default(false),
  cohort: cohortDefinition,
});
export type SavedQueryCreateRequest = z.input<typeof savedQueryCreateRequest>;

export const savedQueryUpdateRequest = savedQueryCreateRequest.extend({
  id: z.string().max(64, '检索不存在'),
  /** The version the caller read: a save in between answers 409. */
  rowVersion: int4({ min: 1, message: '请提供数据版本' }),
});
export type SavedQueryUpdateRequest = z.input<typeof savedQueryUpdateRequest>;

export const savedQueryIdRequest = z.object({ id: z.string().max(64, '检索不存在') });

// ---- the cohort's patients (`retrieval/rows`) ---------------------------------------------------------------------

export const COHORT_ROW_SORTS = ['patientNo', 'enrolDate'] as const;

/** `POST retrieval/rows`: a page of the patients a cohort selects in the caller's scope. */
export const cohortRowsRequest = pageRequest.extend({
  cohort: cohortDefinition,
  sort: z.enum(COHORT_ROW_SORTS, '排序字段不正确').default('patientNo'),
  order: z.enum(['asc', 'desc'], '排序方向不正确').default('asc'),
});
export type CohortRowsRequest = z.input<typeof cohortRowsRequest>;

/** A patient of a cohort: identity masked without `patient.pii` (as the patient list). */
export const cohortRowVO = z.object({
  id: z.string(),
  patientNo: z.string(),
  name: z.string(),
  gender: z.string().nullable(),
  centerName: z.string(),
  enrolDate: z.string().nullable(),
  status: z.string(),
  masked: z.boolean(),
});
export type CohortRowVO = z.infer<typeof cohortRowVO>;

export const cohortRowsResponse = page(cohortRowVO);
/** The request as the server reads it (defaults applied). */
export type CohortRowsInput = z.output<typeof cohortRowsRequest>;
