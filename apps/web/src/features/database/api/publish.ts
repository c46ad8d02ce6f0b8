import type { PublishRequest, VersionSummary } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

/** `POST form-definition/publish {revision, note, confirmDataLoss}`: freezes the draft as the next version. */
export function publishDraft(body: PublishRequest): Promise<VersionSummary> {
  return request<VersionSummary>({ method: 'post', url: '/form-definition/publish', data: body });
}
