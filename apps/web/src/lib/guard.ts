import { redirect, type LoaderFunctionArgs } from 'react-router';
import { isPublicPage } from '@registry/shared/page-access';
import { checkVersion } from './version-check';
import { getToken } from './token';

export const LOGIN_PATH = '/login';

/**
 * The navigation guard of seed §2, run as the root route's loader on every navigation (the root route revalidates
 * always): the version check first (a changed version reloads the target address), then the token check: without a
 * stored token, every path but the public pages of `PAGE_ACCESS` (only /login) goes to /login.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const target = `${url.pathname}${url.search}${url.hash}`;
  const reloading = await checkVersion(target);
  if (reloading) return null;
  if (!isPublicPage(url.pathname) && !getToken()) throw redirect(LOGIN_PATH);
  return null;
}
