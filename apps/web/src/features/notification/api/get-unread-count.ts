import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { notificationKeys } from './keys';

/** How often the header asks for the unread count. */
export const UNREAD_POLL_MS = 60_000;

/** `GET notification/unread-count`: the caller's unread notifications. */
export function getUnreadCount(): Promise<{ count: number }> {
  return request<{ count: number }>({ method: 'get', url: '/notification/unread-count' });
}

/** Polled every minute and again when the window regains focus. */
export function useUnreadCount(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unreadCount,
    queryFn: getUnreadCount,
    enabled,
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
