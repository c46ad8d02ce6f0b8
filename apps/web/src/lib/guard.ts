import { redirect, type LoaderFunctionArgs } from 'react-router';
import { checkVersion } from './version-check';
import { getToken } from './token';

export const LOGIN_PATH = '/login';

/**
 * The navigation guard of seed §2, run as the root route's loader on every navigation (the root route revalidates
 * always): the version check first (a changed version reloads the target address), then the token check (any path
 * other than /login without a stored token goes to /login).
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const target = `${url.pathname}${url.search}${url.hash}`;
  const reloading = await checkVersion(target);
  if (reloading) return null;
  if (url.pathname !== LOGIN_PATH && !getToken()) throw redirect(LOGIN_PATH);
  return null;
}
