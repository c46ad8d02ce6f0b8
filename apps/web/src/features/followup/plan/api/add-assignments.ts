import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PlanApplyResponse } from '@registry/shared/contracts/followup';
import { request } from '../../../../lib/request';
import { planKeys } from './keys';

export type AddAssignmentsResult = PlanApplyResponse & { skipped: number };

/** `POST followup/assignment/add`: attach an active plan to patients by hand. */
export function addAssignments(body: { planId: string; patientIds: string[] }): Promise<AddAssignmentsResult> {
  return request<AddAssignmentsResult>({ method: 'post', url: '/followup/assignment/add', data: body });
}

export function useAddAssignments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addAssignments,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planKeys.all }),
  });
}
