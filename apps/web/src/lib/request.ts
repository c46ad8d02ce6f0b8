import axios, { AxiosError, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import {
  API_BASE,
  APP_CODE,
  APP_CODE_HEADER,
  REQUEST_TIMEOUT_MS,
  REQUEST_TIMEOUT_RETRIES,
  uploadFailureMessage,
} from '@registry/shared/constants';
import { IDEMPOTENCY_KEY_HEADER, PASSWORD_SETUP_REQUIRED } from '@registry/shared/access';
import type { Envelope } from '@registry/shared/contracts/envelope';
import { clearToken, getToken, isSignedOut } from './token';
import { requirePasswordSetup } from './stores/password-setup-store';
import { currentPathname, navigateTo } from './navigation-bridge';
import { toast } from './toast';

/** Extra per-request options of the request layer. */
type RequestOptions = {
  /** Marks an upload: a failure without a server message shows `fail to {method} {url} {status}`. */
  upload?: boolean;
  /** No toast and no redirect to /login when the call fails (log out: the session may be gone already). */
  silent?: boolean;
  /** Internal: how many timeout retries this request has used. */
  retryCount?: number;
  /** Internal: the key under which the in-flight request is tracked for duplicate cancellation. */
  dedupeKey?: string;
  /** Internal: the `Idempotency-Key` of a write call, made once and sent again by its timeout retry. */
  idempotencyKey?: string;
};

declare module 'axios' {
  // Module augmentation needs an interface (declaration merging).
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface AxiosRequestConfig {
    registry?: RequestOptions;
  }
}

/** A call that reached the server and was refused (HTTP error or body status ≠ 200). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<Envelope<unknown>> | undefined;
  constructor(status: number, message: string, body?: Partial<Envelope<unknown>>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export const http = axios.create({ baseURL: API_BASE, timeout: REQUEST_TIMEOUT_MS });

const inFlight = new Map<string, AbortController>();

function stableStringify(value: unknown): string {
  if (value === undefined) return '';
  if (typeof FormData !== 'undefined' && value instanceof FormData) {
    return JSON.stringify(
      [...value.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `${v.name}:${v.size}:${v.lastModified}`]),
    );
  }
  if (typeof value === 'string') return value;
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** Same url, method, token, params and data → same key (seed §4). */
export function requestKey(config: AxiosRequestConfig, token: string | null): string {
  return [
    (config.method ?? 'get').toLowerCase(),
    config.url ?? '',
    token ?? '',
    stableStringify(config.params),
    stableStringify(config.data),
  ].join('|');
}

function isLoginPath(): boolean {
  return currentPathname() === '/login';
}

function goToLogin(): void {
  clearToken();
  if (!isLoginPath()) navigateTo('/login', { replace: true });
}

function isEnvelope(body: unknown): body is Partial<Envelope<unknown>> & { status: number } {
  return typeof body === 'object' && body !== null && typeof (body as { status?: unknown }).status === 'number';
}

/**
 * The session's user still has the initial password (PASSWORD_SETUP_REQUIRED): the session stays, the forced 设置密码
 * dialog opens, and no toast (the dialog says what to do; a page's several refused calls would each raise one).
 */
function refuseUntilPasswordSet(status: number, text: string, body: unknown): Promise<never> {
  requirePasswordSetup();
  return Promise.reject(new ApiError(status, text, isEnvelope(body) ? body : undefined));
}

function forget(config: AxiosRequestConfig | undefined): void {
  const key = config?.registry?.dedupeKey;
  if (key && inFlight.get(key)?.signal === config?.signal) inFlight.delete(key);
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * A random UUID (v4). `crypto.randomUUID` exists only in secure contexts (HTTPS, localhost): over plain HTTP on a
 * hospital's intranet address the key is made from `crypto.getRandomValues`, which exists everywhere.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The calls the server answers without a session: the sign-in page's (`auth/login`, captcha, SMS, QR code, options). */
const PUBLIC_CALL = /^\/auth\/(login|login-options|captcha|sms|qr-code|qr-code\/status)(\?|$)/;

http.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const token = getToken();
  config.headers.set(APP_CODE_HEADER, APP_CODE);
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  else if (isSignedOut() && !config.headers.has('Authorization') && !PUBLIC_CALL.test(config.url ?? '')) {
    // Signed out (e.g. a query refetching while the page unmounts after log out): the server would answer 401, so
    // the call is not sent; the page is on its way to /login.
    throw new axios.CanceledError('not signed in', config);
  }

  // A write carries an idempotency key, made once per call: its timeout retry sends the same one, so the server runs
  // the write once (ADR 0011). A key the caller set itself is kept.
  if (WRITE_METHODS.has((config.method ?? 'get').toLowerCase()) && !config.headers.has(IDEMPOTENCY_KEY_HEADER)) {
    const idempotencyKey = config.registry?.idempotencyKey ?? newIdempotencyKey();
    config.headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
    config.registry = { ...config.registry, idempotencyKey };
  }

  // A new request cancels an identical one still in flight.
  const key = requestKey(config, token);
  inFlight.get(key)?.abort();
  const controller = new AbortController();
  const outer = config.signal;
  if (outer && 'addEventListener' in outer && outer.addEventListener) {
    if (outer.aborted) controller.abort();
    else outer.addEventListener('abort', () => controller.abort(), { once: true });
  }
  config.signal = controller.signal;
  config.registry = { ...config.registry, dedupeKey: key };
  inFlight.set(key, controller);
  return config;
});

http.interceptors.response.use(
  (response: AxiosResponse) => {
    forget(response.config);
    const body: unknown = response.data;
    // HTTP 200 with a body status other than 200.
    if (isEnvelope(body) && body.status !== 200) {
      const text = body.message || '请求失败';
      if (response.config.registry?.silent) return Promise.reject(new ApiError(body.status, text, body));
      if (body.status === PASSWORD_SETUP_REQUIRED.status) return refuseUntilPasswordSet(body.status, text, body);
      toast.destroy();
      toast.error(text);
      if (body.status === 401) goToLogin();
      return Promise.reject(new ApiError(body.status, text, body));
    }
    return response;
  },
  async (error: unknown) => {
    if (!(error instanceof AxiosError) || axios.isCancel(error)) return Promise.reject(error);
    const config = error.config;
    forget(config);

    // A timeout is retried once, silently.
    if ((error.code === AxiosError.ECONNABORTED || error.code === AxiosError.ETIMEDOUT) && config) {
      const used = config.registry?.retryCount ?? 0;
      if (used < REQUEST_TIMEOUT_RETRIES) {
        const { signal: _signal, ...rest } = config;
        return http.request({ ...rest, registry: { ...config.registry, retryCount: used + 1 } });
      }
    }

    const response = error.response;
    // No response (network failure, timeout after the retry): reject, no toast.
    if (!response) return Promise.reject(error);

    let body: unknown = response.data;
    if (typeof Blob !== 'undefined' && body instanceof Blob && body.type.includes('json')) {
      try {
        body = JSON.parse(await body.text()) as unknown;
      } catch {
        body = undefined;
      }
    }
    const serverMessage = isEnvelope(body) && body.message ? body.message : undefined;
    const status = response.status;
    if (config?.registry?.silent) {
      return Promise.reject(new ApiError(status, serverMessage ?? '', isEnvelope(body) ? body : undefined));
    }
    if (status === PASSWORD_SETUP_REQUIRED.status) {
      return refuseUntilPasswordSet(status, serverMessage ?? PASSWORD_SETUP_REQUIRED.message, body);
    }
    if (status === 401) goToLogin();
    const text =
      serverMessage ??
      (config?.registry?.upload
        ? uploadFailureMessage(config.method ?? 'post', `${config.baseURL ?? ''}${config.url ?? ''}`, status)
        : `请求失败（${status}）`);
    toast.destroy();
    toast.error(text);
    return Promise.reject(new ApiError(status, text, isEnvelope(body) ? body : undefined));
  },
);

/** Calls the API and returns the envelope's `data`. */
export async function request<T>(config: AxiosRequestConfig): Promise<T> {
  const response = await http.request<Envelope<T>>(config);
  return response.data.data;
}

/** Calls the API for a binary answer (captcha, QR code) and returns the blob with the response headers. */
export async function requestBlob(
  config: AxiosRequestConfig,
): Promise<{ blob: Blob; headers: Record<string, string> }> {
  const response = await http.request<Blob>({ ...config, responseType: 'blob' });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return { blob: response.data, headers };
}
