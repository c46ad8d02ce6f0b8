import axios from 'axios';
import { STORAGE_KEYS, VERSION_FILE } from '@registry/shared/constants';
import type { VersionFile } from '@registry/shared/contracts/version';
import { hardNavigate } from './navigation-bridge';

/** The shape of `versionFile` (shared contract), checked by hand so the first route does not load zod. */
function isVersionFile(data: unknown): data is VersionFile {
  return typeof data === 'object' && data !== null && typeof (data as { version?: unknown }).version === 'string';
}

/**
 * The version check of the navigation guard (seed §2). Fetches `/version.json?timestamp=<now>` and compares it with
 * the stored `version`:
 * - no stored version (first visit): store it, no reload — the page was just loaded, so it already runs this build;
 * - a different version: store the new one and load `target` from the server (a full page load), returns true;
 * - the same version, or the check failed (network, bad JSON): nothing happens, returns false.
 */
export async function checkVersion(target: string): Promise<boolean> {
  let fetched: string;
  try {
    const response = await axios.get<unknown>(VERSION_FILE, {
      params: { timestamp: Date.now() },
      headers: { 'Cache-Control': 'no-cache' },
    });
    if (!isVersionFile(response.data)) return false;
    fetched = response.data.version;
  } catch {
    return false;
  }
  const stored = localStorage.getItem(STORAGE_KEYS.version);
  localStorage.setItem(STORAGE_KEYS.version, fetched);
  if (stored === null || stored === fetched) return false;
  hardNavigate(target);
  return true;
}
