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

/** How many CRF columns a page of the cohort may carry. */
export const MAX_COHORT_COLUMNS = 20;

/**
 * A CRF column of the result: a field of a non-repeating form (read from its instance 1). A field of a repeating form
 * and a table (group) or one of its columns are refused (400 naming it): which of their records or rows would be
 * "the" value is not one answer. The keys are checked against the published forms by the server, unknown ones
 * refused with the message the cohort check gives (`字段「…」不存在`).
 */
export const cohortColumn = z.object({
  form: z.string('请选择表单').max(64, '表单不存在'),
  field: z.string('请选择字段').max(64, '字段不存在'),
});
export type CohortColumn = z.infer<typeof cohortColumn>;

/** The key of a column's value in a row's `values`, and a column sort: `form.field` (keys hold no dot). */
export const cohortColumnKey = (c: CohortColumn) => `${c.form}.${c.field}`;

/** `POST retrieval/rows`: a page of the patients a cohort selects in the caller's scope, with chosen CRF columns. */
export const cohortRowsRequest = pageRequest.extend({
  cohort: cohortDefinition,
  columns: z
    .array(cohortColumn, '显示列格式不正确')
    .max(MAX_COHORT_COLUMNS, `最多选择${MAX_COHORT_COLUMNS}个显示列`)
    .default([]),
  /**
   * `patientNo`, `enrolDate`, or a CRF field as `form.field` (numbers sort numerically, dates as dates, text as text,
   * a value that is not of its field's type and a blank one last in either direction).
   */
  sort: z.string('排序字段不正确').max(130, '排序字段不正确').default('patientNo'),
  order: z.enum(['asc', 'desc'], '排序方向不正确').default('asc'),
});
export type CohortRowsRequest = z.input<typeof cohortRowsRequest>;

/** A CRF value as stored: a number, a text (a date, an option code, a missing-data code), a checkbox's codes. */
export const cohortCellValue = z.union([z.string(), z.number(), z.array(z.string()), z.null()]);
export type CohortCellValue = z.infer<typeof cohortCellValue>;

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
  /** The chosen columns' values by `form.field` (null: no value, or withheld). */
  values: z.record(z.string(), cohortCellValue),
  /** The columns whose values are withheld (PHI fields, without `patient.pii`). */
  withheld: z.array(z.string()),
});
export type CohortRowVO = z.infer<typeof cohortRowVO>;

export const cohortRowsResponse = page(cohortRowVO);
export type CohortRowsResponse = z.infer<typeof cohortRowsResponse>;
/** The request as the server reads it (defaults applied). */
export type CohortRowsInput = z.output<typeof cohortRowsRequest>;
