import { http, HttpResponse } from 'msw';
import { API_BASE } from '@registry/shared/constants';

/** The absolute URL MSW should match for an API path (jsdom's origin). */
export function apiUrl(path: string): string {
  return `${API_BASE}${path}`;
}

export function ok<T>(data: T) {
  return HttpResponse.json({ status: 200, message: 'ok', data });
}

export { http, HttpResponse };
