import { z } from 'zod';

/** An organisation (hospital) of the acting tenant: what a center belongs to. */
export const organisationOption = z.object({ id: z.string(), name: z.string() });
export type OrganisationOption = z.infer<typeof organisationOption>;

/** `GET web-project/org-list?keyword=` (signed in): the acting tenant's organisations, name contains keyword. */
export const organisationListQuery = z.object({
  keyword: z.string().trim().max(100, '关键字不能超过100个字符').optional(),
});
export const organisationListResponse = z.array(organisationOption);

/**
 * `POST web-project/org {name}` (`center.manage` in the current project): adds a hospital to the tenant (for a
 * center at another hospital of a multi-center study). 409 '机构已存在' when the tenant has one of that name.
 */
export const organisationCreateRequest = z.object({
  name: z.string().trim().min(1, '请输入机构名称').max(100, '机构名称不能超过100个字符'),
});
export type OrganisationCreateRequest = z.infer<typeof organisationCreateRequest>;
