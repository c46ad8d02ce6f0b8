import { useQuery } from '@tanstack/react-query';
import type { MemberVO } from '@registry/shared/contracts/member';
import type { Page } from '../../../lib/page';
import { pageMembers } from '../../../api/members';

/** `POST project-member/page {size: 200}`: the project's members, from whom a center's lead is chosen. */
export function listLeadCandidates(): Promise<Page<MemberVO>> {
  return pageMembers({ current: 1, size: 200 });
}

export function useLeadCandidates(enabled = true) {
  return useQuery({
    queryKey: ['project-member', 'lead-candidates'],
    queryFn: listLeadCandidates,
    enabled,
    retry: false,
  });
}
