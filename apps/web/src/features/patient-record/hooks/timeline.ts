import type { RecordSummary, RecordStatus } from '@registry/shared/contracts/form-record';
import type { PatientVO } from '@registry/shared/contracts/patient';
import type { Definition } from '@registry/shared/forms/definition';
import { findForm } from '@registry/shared/forms/walk';

export const TIMELINE_KINDS = ['registered', 'enrolled', 'created', 'submitted', 'verified', 'locked'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export type TimelineEvent = {
  /** ISO time, or a `YYYY-MM-DD` date (enrolment). */
  at: string;
  kind: TimelineKind;
  title: string;
  formKey?: string;
  instance?: number;
  /** The record's status now (a form's events link to it). */
  status?: RecordStatus;
};

const VERBS: Record<Exclude<TimelineKind, 'registered' | 'enrolled'>, string> = {
  created: '录入',
  submitted: '提交',
  verified: '核查',
  locked: '锁定',
};

/**
 * The patient's story in date order: registration, enrolment, and each form record's creation, submission,
 * verification and lock. (Follow-ups, documents and randomization join it with their issues.)
 */
export function buildTimeline(
  patient: PatientVO,
  records: readonly RecordSummary[],
  definition: Definition | undefined,
): TimelineEvent[] {
  const events: TimelineEvent[] = [{ at: patient.createdAt, kind: 'registered', title: '建档登记' }];
  if (patient.enrolDate) events.push({ at: patient.enrolDate, kind: 'enrolled', title: '入组' });
  for (const record of records) {
    const form = definition ? findForm(definition, record.formKey) : undefined;
    const name = `「${form?.title ?? record.formKey}」${form?.repeating ? `第 ${record.instance} 次` : ''}`;
    const base = { formKey: record.formKey, instance: record.instance, status: record.status };
    const steps: [Exclude<TimelineKind, 'registered' | 'enrolled'>, string | null][] = [
      ['created', record.createdAt],
      ['submitted', record.submittedAt],
      ['verified', record.verifiedAt],
      ['locked', record.lockedAt],
    ];
    for (const [kind, at] of steps) if (at) events.push({ ...base, at, kind, title: `${VERBS[kind]}${name}` });
  }
  const order = (kind: TimelineKind) => TIMELINE_KINDS.indexOf(kind);
  // A date without a time (enrolment) sorts before that day's timed events.
  return events.sort((a, b) => a.at.localeCompare(b.at) || order(a.kind) - order(b.kind));
}
