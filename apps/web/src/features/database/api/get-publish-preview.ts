import { useQuery } from '@tanstack/react-query';
import type { PublishPreviewResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `GET form-definition/publish-preview`: the diff, problems and data-loss warnings of publishing the draft. */
export function getPublishPreview(): Promise<PublishPreviewResponse> {
  return request<PublishPreviewResponse>({ method: 'get', url: '/form-definition/publish-preview' });
}

export function usePublishPreview(enabled: boolean) {
  return useQuery({
    queryKey: ['form-definition', 'publish-preview'],
    queryFn: getPublishPreview,
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}
