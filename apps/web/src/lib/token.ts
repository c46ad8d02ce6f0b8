import { STORAGE_KEYS } from '@registry/shared/constants';
import { resetPasswordSetup } from './stores/password-setup-store';

/** The access token lives in BOTH local and session storage under `assets-token-web` (seed §9). */
export function getToken(): string | null {
  return sessionStorage.getItem(STORAGE_KEYS.token) ?? localStorage.getItem(STORAGE_KEYS.token);
}

export function setToken(token: string): void {
  localStorage.setItem(STORAGE_KEYS.token, token);
  sessionStorage.setItem(STORAGE_KEYS.token, token);
}

export function clearToken(): void {
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
