import { useQuery } from '@tanstack/react-query';
import type { PatientTimelineItem } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';

/** `GET followup/patient/timeline?patientId=` (`followup.list`): the patient's follow-up tasks with their contacts. */
export function getFollowupTimeline(patientId: string): Promise<PatientTimelineItem[]> {
  return request<PatientTimelineItem[]>({ method: 'get', url: '/followup/patient/timeline', params: { patientId } });
}

export function useFollowupTimeline(patientId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['followup', 'patient-timeline', patientId],
    queryFn: () => getFollowupTimeline(patientId),
    enabled,
  });
}
