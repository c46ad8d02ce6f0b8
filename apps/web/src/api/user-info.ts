import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@registry/shared/contracts/user';
import { request } from '../lib/request';

export const userKeys = {
  info: ['sys-user', 'user-info'] as const,
};

/** `GET sys-user/user-info`: the signed-in user (the header, the user menu, the project management page). */
export function getUserInfo(): Promise<UserInfo> {
  return request<UserInfo>({ method: 'get', url: '/sys-user/user-info' });
}

/** Loaded once and cached until invalidated (after `PUT sys-user`), seed §4. */
export const userInfoQuery = () => queryOptions({ queryKey: userKeys.info, queryFn: getUserInfo, staleTime: Infinity });

export function useUserInfo() {
  return useQuery(userInfoQuery());
}
