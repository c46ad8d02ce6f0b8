import { z } from 'zod';

/**
 * A user's saved table layout of a page (`page-config-custom`): which columns show, in which order, how wide. Kept per
 * user, and per project for pages inside a project (the patient list's CRF columns differ by project). Any signed-in
 * user may read and write their own layouts only.
 */
export const PAGE_KEYS = ['patient-list'] as const;
export type PageKey = (typeof PAGE_KEYS)[number];

export const pageColumnConfig = z.object({
  /** A fixed column (`patientNo`, `name` ...) or a CRF list column `field:<fieldKey>`. */
  key: z
    .string()
    .min(1, '列不正确')
    .max(100, '列不正确')
    .regex(/^(?:field:[a-z][a-z0-9_]{0,63}|[A-Za-z][A-Za-z0-9_]{0,63})$/, '列不正确'),
  visible: z.boolean(),
  /** Pixels; absent = the page's default width. */
  width: z.number().int('列宽不正确').min(40, '列宽不能小于40').max(1000, '列宽不能大于1000').optional(),
});
export type PageColumnConfig = z.infer<typeof pageColumnConfig>;

export const pageConfig = z.object({
  /** In display order. Columns the page has but the list lacks are shown after these, as by default. */
  columns: z
    .array(pageColumnConfig)
    .max(300, '列太多')
    .superRefine((columns, ctx) => {
      const seen = new Set<string>();
      columns.forEach((column, index) => {
        if (seen.has(column.key))
          ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `列 ${column.key} 重复` });
        seen.add(column.key);
      });
    }),
  pageSize: z.number().int('每页条数不正确').min(10, '每页条数不能小于10').max(200, '每页条数不能大于200').optional(),
});
export type PageConfig = z.infer<typeof pageConfig>;

/** `GET page-config-custom?pageKey=`: the saved layout, or null when the user kept the default. */
export const pageConfigQuery = z.object({ pageKey: z.enum(PAGE_KEYS, '页面不正确') });
export const pageConfigResponse = z.object({ pageKey: z.enum(PAGE_KEYS), config: pageConfig.nullable() });
export type PageConfigResponse = z.infer<typeof pageConfigResponse>;

/** `POST page-config-custom`: save the layout (replaces the saved one); answers `pageConfigResponse`. */
export const pageConfigSaveRequest = z.object({ pageKey: z.enum(PAGE_KEYS, '页面不正确'), config: pageConfig });
export type PageConfigSaveRequest = z.infer<typeof pageConfigSaveRequest>;

/** `DELETE page-config-custom?pageKey=`: back to the default layout; answers `pageConfigResponse` with config null. */
export const pageConfigDeleteQuery = pageConfigQuery;
