import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditPageRequest, AuditPageResponse } from '@registry/shared/contracts/audit';
import { request } from '../../../lib/request';

/** `POST audit-event/page`: the audit trail of the current project, newest first, with filters. */
export function listAuditEvents(body: AuditPageRequest): Promise<AuditPageResponse> {
  return request<AuditPageResponse>({ method: 'post', url: '/audit-event/page', data: body });
}

export function useAuditEvents(body: AuditPageRequest) {
  return useQuery({
    queryKey: ['audit-event', 'page', body],
    queryFn: () => listAuditEvents(body),
    placeholderData: keepPreviousData,
  });
}
