import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MemberPageRequest, MemberVO } from '@registry/shared/contracts/member';
import type { Page } from '../../../lib/page';
import { pageMembers } from '../../../api/members';

/** `POST project-member/page`: the current project's members. */
export function listMembers(body: MemberPageRequest): Promise<Page<MemberVO>> {
  return pageMembers(body);
}

export function useMembers(body: MemberPageRequest) {
  return useQuery({
    queryKey: ['project-member', 'page', body],
    queryFn: () => listMembers(body),
    placeholderData: keepPreviousData,
  });
}
