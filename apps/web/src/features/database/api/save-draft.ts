import type { z } from 'zod';
import type { DraftSaveRequest, draftSaveResponse } from '@registry/shared/contracts/form-definition';
import { request } from '../../../lib/request';

export type DraftSaveResult = z.infer<typeof draftSaveResponse>;

/** `PUT form-definition/draft {revision, definition}`: 409 when someone else saved since `revision`. */
export function saveDraft(body: DraftSaveRequest): Promise<DraftSaveResult> {
  return request<DraftSaveResult>({ method: 'put', url: '/form-definition/draft', data: body });
}
