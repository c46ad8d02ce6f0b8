import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactCreateRequest, ContactVO } from '@registry/shared/contracts/followup';
import { request } from '../../../lib/request';
import { taskKeys } from './keys';

/** `POST followup/task/contact` (`followup.edit`): records a contact attempt (append-only; not in the future). */
export function addContact(body: ContactCreateRequest): Promise<ContactVO> {
  return request<ContactVO>({ method: 'post', url: '/followup/task/contact', data: body });
}

export function useAddContact() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: addContact,
    onSuccess: () => client.invalidateQueries({ queryKey: taskKeys.tasks }),
  });
}
