import { pageConfig, type PageConfigResponse, type PageKey } from '@registry/shared/contracts/page-config';

/**
 * A saved layout as the web sees it: only what the contract names. A stored document that no longer fits the
 * contract (written by an older version) reads as the default layout rather than failing the page.
 */
export function presentLayout(pageKey: PageKey, stored: unknown): PageConfigResponse {
  if (stored === undefined || stored === null) return { pageKey, config: null };
  const parsed = pageConfig.safeParse(stored);
  return { pageKey, config: parsed.success ? parsed.data : null };
}
