import { STORAGE_KEYS } from '@registry/shared/constants';
import { resetPasswordSetup } from './stores/password-setup-store';

/** The access token lives in BOTH local and session storage under `assets-token-web` (seed §9). */
export function getToken(): string | null {
  return sessionStorage.getItem(STORAGE_KEYS.token) ?? localStorage.getItem(STORAGE_KEYS.token);
}

/** True once the token was cleared in this page's life (log out, a 401) until the next sign-in. */
let signedOut = false;

/** Signed out in this page (not merely never signed in): calls needing a session are then not sent. */
export function isSignedOut(): boolean {
  return signedOut && getToken() === null;
}

/** Test support: a fresh page. */
export function resetSignedOut(): void {
  signedOut = false;
}

export function setToken(token: string): void {
  signedOut = false;
  localStorage.setItem(STORAGE_KEYS.token, token);
  sessionStorage.setItem(STORAGE_KEYS.token, token);
}

export function clearToken(): void {
  signedOut = true;
  localStorage.removeItem(STORAGE_KEYS.token);
  sessionStorage.removeItem(STORAGE_KEYS.token);
  resetPasswordSetup();
}

/** File preview links carry the token as a query parameter (seed §7). */
export function withAccessToken(url: string): string {
  const token = getToken();
  if (!token) return url;
  return `${url}${url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`;
}
