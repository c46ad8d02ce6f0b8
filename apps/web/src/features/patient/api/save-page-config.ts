import { useMutation } from '@tanstack/react-query';
import type { PageConfigSaveRequest } from '@registry/shared/contracts/page-config';
import { request } from '../../../lib/request';

/** `POST page-config-custom`: replaces the user's saved layout of the page. */
export function savePageConfig(body: PageConfigSaveRequest): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/page-config-custom', data: body });
}

export function useSavePageConfig() {
  return useMutation({ mutationFn: savePageConfig });
}
