import type { MemberPageRequest, MemberVO } from '@registry/shared/contracts/member';
import type { Page } from '../lib/page';
import { request } from '../lib/request';

/** `POST project-member/page`: the current project's members (the member list, a center's lead candidates). */
export function pageMembers(body: MemberPageRequest): Promise<Page<MemberVO>> {
  return request<Page<MemberVO>>({ method: 'post', url: '/project-member/page', data: body });
}
