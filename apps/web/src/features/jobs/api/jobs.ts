import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JobAdminVO, JobListQuery, JobListResponse } from '@registry/shared/contracts/job';
import { request } from '../../../lib/request';

const KEY = ['sys-job'] as const;

/** `GET sys-job/list?state=&queue=` (`tenant.manage`): every queue's live jobs, newest first. */
export function useJobs(params: JobListQuery) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () => request<JobListResponse>({ method: 'get', url: '/sys-job/list', params }),
  });
}

function useJobAction(path: 'retry' | 'cancel') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<JobAdminVO>({ method: 'post', url: `/sys-job/${path}`, data: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

/** `POST sys-job/retry` `{id}`: a failed job gets one more attempt. */
export const useRetryJob = () => useJobAction('retry');
/** `POST sys-job/cancel` `{id}`: a job not yet finished is cancelled. */
export const useCancelJob = () => useJobAction('cancel');
