import type { Executor } from '../../db/client';
import type { AuditContext } from '../../plugins/audit';

/**
 * What a change to a patient owes the follow-up, in the change's own transaction: the patient's plans by rule,
 * anchor dates and tasks brought in step (ADR 0006). The patient, patient-import and form-record services call it;
 * the follow-up module implements it (`patientFollowupSync` in modules/followup/followup-sync.ts) and `buildApp`
 * hands it to them, so they do not import the follow-up module, which imports them.
 */
export type PatientFollowupSync = {
  /** After a patient was created, edited, deleted or one of its records saved. */
  syncPatient(tx: Executor, ctx: AuditContext, patientId: string, now: Date): Promise<unknown>;
  /** Whether an active plan of these projects reads this form (an anchor or rule field): only then must a save sync. */
  readsForm(ex: Executor, tenantId: string, projectIds: string[], formKey: string): Promise<boolean>;
};
