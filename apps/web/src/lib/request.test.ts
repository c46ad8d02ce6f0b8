import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { delay } from 'msw';
import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { IDEMPOTENCY_KEY_HEADER } from '@registry/shared/access';
import { STORAGE_KEYS } from '@registry/shared/constants';
import { server } from '../test/server';
import { apiUrl, http, HttpResponse, ok } from '../test/api';
import { recordToasts, type ToastCall } from '../test/fake-toast';
import { registerNavigator } from './navigation-bridge';
import { ApiError, newIdempotencyKey, request } from './request';
import { clearToken, getToken, setToken } from './token';
import { usePasswordSetup } from './stores/password-setup-store';

let toasts: ToastCall[];
let navigate: Mock<(to: string, options?: { replace?: boolean }) => void>;

beforeEach(() => {
  toasts = recordToasts();
  navigate = vi.fn();
  registerNavigator(navigate);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('request headers', () => {
  it('should send X-App-Code WEB and the bearer token when a token is stored', async () => {
    setToken('tok-123');
    let seen: Headers | undefined;
    server.use(
      http.get(apiUrl('/sys-user/user-info'), ({ request: req }) => {
        seen = req.headers;
        return ok({ id: 'u1' });
      }),
    );
    await expect(request({ url: '/sys-user/user-info' })).resolves.toEqual({ id: 'u1' });
    expect(seen?.get('x-app-code')).toBe('WEB');
    expect(seen?.get('authorization')).toBe('Bearer tok-123');
  });
});

describe('duplicate cancellation', () => {
  it('should cancel the in-flight request when an identical one starts', async () => {
    setToken('tok');
    let calls = 0;
    server.use(
      http.post(apiUrl('/web-project/list'), async () => {
        calls += 1;
        await delay(50);
        return ok({ n: calls });
      }),
    );
    const first = request({ method: 'post', url: '/web-project/list', data: { keyword: '心衰' } });
    const second = request({ method: 'post', url: '/web-project/list', data: { keyword: '心衰' } });
    await expect(first).rejects.toMatchObject({ code: 'ERR_CANCELED' });
    await expect(second).resolves.toBeDefined();
    expect(toasts).toEqual([]);
  });

  it('should let both requests finish when their data differ', async () => {
    server.use(
      http.post(apiUrl('/web-project/list'), async ({ request: req }) => {
        await delay(20);
        return ok(await req.json());
      }),
    );
    const results = await Promise.all([
      request({ method: 'post', url: '/web-project/list', data: { keyword: 'a' } }),
      request({ method: 'post', url: '/web-project/list', data: { keyword: 'b' } }),
    ]);
    expect(results).toEqual([{ keyword: 'a' }, { keyword: 'b' }]);
  });
});

describe('signed out', () => {
  it('should not send a call needing a session once the token was cleared, but still the sign-in page calls', async () => {
    const seen: string[] = [];
    server.use(
      http.get(apiUrl('/notification/unread-count'), () => {
        seen.push('unread-count');
        return ok({ count: 0 });
      }),
      http.get(apiUrl('/auth/login-options'), () => {
        seen.push('login-options');
        return ok({ captchaEnabled: true, smsEnabled: true, qrEnabled: true });
      }),
    );
    setToken('tok');
    clearToken();
    await expect(request({ url: '/notification/unread-count' })).rejects.toMatchObject({ code: 'ERR_CANCELED' });
    await expect(request({ url: '/auth/login-options' })).resolves.toMatchObject({ captchaEnabled: true });
    expect(seen).toEqual(['login-options']);
    expect(toasts).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
    setToken('next');
    await expect(request({ url: '/notification/unread-count' })).resolves.toEqual({ count: 0 });
  });
});

describe('timeout', () => {
  /** A transport that times out on the listed attempts (MSW cannot make XHR time out in jsdom). */
  function timingOutAdapter(timeoutAttempts: number[]) {
    let calls = 0;
    const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
      calls += 1;
      if (timeoutAttempts.includes(calls)) {
        throw new AxiosError('timeout of 100ms exceeded', AxiosError.ECONNABORTED, config);
      }
      return {
        data: { status: 200, message: 'ok', data: { total: 3 } },
        status: 200,
        statusText: 'OK',
        headers: {},
        config,
      };
    };
    return { adapter, calls: () => calls };
  }

  it('should retry once silently when the first attempt times out', async () => {
    const transport = timingOutAdapter([1]);
    await expect(request({ url: '/web-project/count', timeout: 100, adapter: transport.adapter })).resolves.toEqual({
      total: 3,
    });
    expect(transport.calls()).toBe(2);
    expect(toasts).toEqual([]);
  });

  it('should reject without a toast when the retry times out too', async () => {
    const transport = timingOutAdapter([1, 2, 3]);
    await expect(
      request({ url: '/web-project/count', timeout: 100, adapter: transport.adapter }),
    ).rejects.toMatchObject({
      code: 'ECONNABORTED',
    });
    expect(transport.calls()).toBe(2);
    expect(toasts).toEqual([]);
  });
});

describe('idempotency key', () => {
  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  /** A transport recording each attempt's Idempotency-Key; it times out on the listed attempts. */
  function recordingAdapter(timeoutAttempts: number[]) {
    const keys: (string | undefined)[] = [];
    const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
      const key = config.headers.get(IDEMPOTENCY_KEY_HEADER);
      keys.push(typeof key === 'string' ? key : undefined);
      if (timeoutAttempts.includes(keys.length)) {
        throw new AxiosError('timeout of 100ms exceeded', AxiosError.ECONNABORTED, config);
      }
      return { data: { status: 200, message: 'ok', data: null }, status: 200, statusText: 'OK', headers: {}, config };
    };
    return { adapter, keys };
  }

  it('should send the same key on the retry of a POST that timed out, and a new key on the next call', async () => {
    setToken('tok');
    const transport = recordingAdapter([1]);
    const call = () =>
      request({
        method: 'post',
        url: '/patient-info',
        data: { name: '张三' },
        timeout: 100,
        adapter: transport.adapter,
      });
    await expect(call()).resolves.toBeNull();
    expect(transport.keys).toHaveLength(2);
    expect(transport.keys[0]).toMatch(UUID_V4);
    expect(transport.keys[1]).toBe(transport.keys[0]);
    expect(toasts).toEqual([]);

    await call();
    expect(transport.keys).toHaveLength(3);
    expect(transport.keys[2]).toMatch(UUID_V4);
    expect(transport.keys[2]).not.toBe(transport.keys[0]);
  });

  it('should put a key on every write method and none on a read', async () => {
    const transport = recordingAdapter([]);
    for (const method of ['put', 'patch', 'delete', 'get'] as const) {
      await request({ method, url: '/page-config-custom', adapter: transport.adapter });
    }
    expect(transport.keys.slice(0, 3).every((k) => UUID_V4.test(k ?? ''))).toBe(true);
    expect(new Set(transport.keys.slice(0, 3)).size).toBe(3);
    expect(transport.keys[3]).toBeUndefined();
  });

  it('should keep a key the caller set', async () => {
    const transport = recordingAdapter([]);
    await request({
      method: 'post',
      url: '/patient-info',
      headers: { [IDEMPOTENCY_KEY_HEADER]: 'mine-1' },
      adapter: transport.adapter,
    });
    expect(transport.keys).toEqual(['mine-1']);
  });

  it('should make a v4 UUID without crypto.randomUUID (plain HTTP is not a secure context)', () => {
    // shadow the prototype's method with an own property, removed afterwards
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const keys = Array.from({ length: 50 }, () => newIdempotencyKey());
      expect(keys.every((k) => UUID_V4.test(k))).toBe(true);
      expect(new Set(keys).size).toBe(50);
    } finally {
      Reflect.deleteProperty(globalThis.crypto, 'randomUUID');
    }
    expect(typeof globalThis.crypto.randomUUID).toBe('function');
  });
});

describe('error catalogue', () => {
  it('should close all toasts then show the body message when HTTP 200 carries another status', async () => {
    server.use(
      http.get(apiUrl('/web-project/current'), () =>
        HttpResponse.json({ status: 500, message: '当前项目不存在', data: null }),
      ),
    );
    await expect(request({ url: '/web-project/current' })).rejects.toBeInstanceOf(ApiError);
    expect(toasts).toEqual([['destroy'], ['error', '当前项目不存在']]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('should clear the token and go to /login when HTTP 200 carries status 401', async () => {
    setToken('expired');
    server.use(
      http.get(apiUrl('/sys-user/user-info'), () =>
        HttpResponse.json({ status: 401, message: '登录已过期，请重新登录', data: null }),
      ),
    );
    await expect(request({ url: '/sys-user/user-info' })).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(toasts).toEqual([['destroy'], ['error', '登录已过期，请重新登录']]);
  });

  it('should clear the token and go to /login when the HTTP status is 401', async () => {
    setToken('revoked');
    server.use(
      http.get(apiUrl('/sys-user/user-info'), () =>
        HttpResponse.json({ status: 401, message: '未登录或登录已失效', data: null, requestId: 'r1' }, { status: 401 }),
      ),
    );
    await expect(request({ url: '/sys-user/user-info' })).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('should keep the session, show no toast and ask for the 设置密码 dialog when the server answers 428', async () => {
    setToken('initial');
    server.use(
      http.post(apiUrl('/web-project/list'), () =>
        HttpResponse.json({ status: 428, message: '请先设置新密码', data: null, requestId: 'r1' }, { status: 428 }),
      ),
      http.get(apiUrl('/web-project/current'), () =>
        HttpResponse.json({ status: 428, message: '请先设置新密码', data: null }),
      ),
    );
    expect(usePasswordSetup.getState().required).toBe(false);
    await expect(request({ method: 'post', url: '/web-project/list' })).rejects.toMatchObject({ status: 428 });
    await expect(request({ url: '/web-project/current' })).rejects.toMatchObject({ status: 428 });
    expect(getToken()).toBe('initial');
    expect(navigate).not.toHaveBeenCalled();
    expect(toasts).toEqual([]);
    expect(usePasswordSetup.getState().required).toBe(true);
    clearToken();
    expect(usePasswordSetup.getState().required).toBe(false);
  });

  it('should close all toasts then show the response message when the HTTP status is an error', async () => {
    setToken('tok');
    server.use(
      http.post(apiUrl('/sys-user/change-pwd'), () =>
        HttpResponse.json({ status: 400, message: '原密码不正确', data: null, requestId: 'r2' }, { status: 400 }),
      ),
    );
    await expect(request({ method: 'post', url: '/sys-user/change-pwd', data: {} })).rejects.toMatchObject({
      status: 400,
      message: '原密码不正确',
    });
    expect(toasts).toEqual([['destroy'], ['error', '原密码不正确']]);
    expect(getToken()).toBe('tok');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('should reject without any toast when there is no response', async () => {
    server.use(http.get(apiUrl('/web-project/count'), () => HttpResponse.error()));
    await expect(request({ url: '/web-project/count' })).rejects.toMatchObject({ code: 'ERR_NETWORK' });
    expect(toasts).toEqual([]);
  });

  it('should show "fail to {method} {url} {status}" when an upload fails without a server message', async () => {
    server.use(http.post(apiUrl('/oss/file/upload-file'), () => new HttpResponse(null, { status: 502 })));
    const data = new FormData();
    data.append('file', new File(['x'], 'a.png', { type: 'image/png' }));
    await expect(
      request({ method: 'post', url: '/oss/file/upload-file', data, registry: { upload: true } }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(toasts).toEqual([['destroy'], ['error', 'fail to post /api/cmdb-template/oss/file/upload-file 502']]);
  });
});
