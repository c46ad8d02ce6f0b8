import { CHANGE_REASON, type RecordStatus } from '../contracts/form-record-codes';

/*
 * The rule of a change to a submitted record, once for the server's save and both web editors (no zod: the editors
 * load it on their first route). A submitted or verified record needs a reason for any change of its data; a draft
 * takes none, a locked record refuses every change (it is unlocked first, with its own reason). The editors ask for
 * the reason once per save (never autosave such a record); the server refuses a change without it. The reason's label,
 * limit and messages (CHANGE_REASON) live with the record's codes, which the pages load anyway.
 */
export { CHANGE_REASON };

/** Whether a change to a record in `status` needs a reason (null: no record yet, a draft to be). */
export function needsChangeReason(status: RecordStatus | null): boolean {
  return status === 'submitted' || status === 'verified';
}

/** Whether a save of a record that was `status` is refused for want of a reason: it changes data, and none was given. */
export function missingChangeReason(
  status: RecordStatus,
  changed: boolean,
  reason: string | null | undefined,
): boolean {
  return needsChangeReason(status) && changed && (reason ?? '').trim() === '';
}
