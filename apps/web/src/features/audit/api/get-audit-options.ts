import { useQuery } from '@tanstack/react-query';
import type { AuditOptionsResponse } from '@registry/shared/contracts/audit';
import { request } from '../../../lib/request';

/** `GET audit-event/options`: actors, actions and entity types present, for the filters. */
export function getAuditOptions(): Promise<AuditOptionsResponse> {
  return request<AuditOptionsResponse>({ method: 'get', url: '/audit-event/options' });
}

export function useAuditOptions() {
  return useQuery({ queryKey: ['audit-event', 'options'], queryFn: getAuditOptions });
}
