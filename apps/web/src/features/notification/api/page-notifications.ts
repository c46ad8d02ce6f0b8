import { useQuery } from '@tanstack/react-query';
import type { NotificationVO } from '@registry/shared/contracts/notification';
import { request } from '../../../lib/request';
import { notificationKeys } from './keys';

export type NotificationPage = { records: NotificationVO[]; total: number; current: number; size: number };

/** `POST notification/page`: the caller's notifications, newest first. */
export function pageNotifications(body: { current: number; size: number; unreadOnly?: boolean }) {
  return request<NotificationPage>({ method: 'post', url: '/notification/page', data: body });
}

/** The latest `size` notifications, loaded while the bell's list is open. */
export function useLatestNotifications(size: number, enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.latest(size),
    queryFn: () => pageNotifications({ current: 1, size }),
    enabled,
  });
}
