import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { notificationKeys } from './keys';

export type ReadNotificationsInput = { ids: string[] } | { all: true };

/** `POST notification/read`: marks the given notifications (or all) read; answers the unread count. */
export function readNotifications(body: ReadNotificationsInput): Promise<{ count: number }> {
  return request<{ count: number }>({ method: 'post', url: '/notification/read', data: body });
}

export function useReadNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: readNotifications,
    onSuccess: (data) => {
      queryClient.setQueryData(notificationKeys.unreadCount, data);
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
