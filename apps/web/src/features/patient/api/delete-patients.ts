import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/request';
import { patientKeys } from './page-patients';

export type DeletePatientsInput = { ids: readonly string[]; reason: string };

/** `DELETE patient-info?ids=a,b&reason=`: soft delete with the reason, all or nothing. */
export function deletePatients({ ids, reason }: DeletePatientsInput): Promise<{ deleted: number }> {
  return request<{ deleted: number }>({
    method: 'delete',
    url: '/patient-info',
    params: { ids: ids.join(','), reason },
  });
}

export function useDeletePatients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePatients,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientKeys.all }),
  });
}
