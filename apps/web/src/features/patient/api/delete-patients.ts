import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { patientKeys } from './page-patients';

export type DeletePatientsInput = { ids: readonly string[]; reason: string };

/** `DELETE patient-info?ids=a,b` with `{ reason }` in the body (never in the URL): soft delete, all or nothing. */
export function deletePatients({ ids, reason }: DeletePatientsInput): Promise<{ deleted: number }> {
  return request<{ deleted: number }>({
    method: 'delete',
    url: '/patient-info',
    params: { ids: ids.join(',') },
    data: { reason },
  });
}

export function useDeletePatients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePatients,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
