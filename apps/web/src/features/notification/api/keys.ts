/** Query keys of the notification calls (the bell invalidates all of them after a read). */
export const notificationKeys = {
  all: ['notification'] as const,
  unreadCount: ['notification', 'unread-count'] as const,
  latest: (size: number) => ['notification', 'page', size] as const,
};
