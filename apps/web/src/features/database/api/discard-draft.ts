import { request } from '../../../lib/request';

/** `POST form-definition/discard-draft {revision}`: the draft becomes the latest published version again. */
export function discardDraft(body: { revision: number }): Promise<unknown> {
  return request<unknown>({ method: 'post', url: '/form-definition/discard-draft', data: body });
}
