import type { PlanAnchor, PlanRule } from '@registry/shared/contracts/followup';
import { isIsoDate, type IsoDate } from '@registry/shared/followup/schedule';
import { isBlankValue } from '@registry/shared/forms/record';

/**
 * The assignment rule and the anchor date of a follow-up plan, evaluated on one patient (pure). The set-based
 * version for a whole project (`ruleCondition` in followup-assignment.repository.ts) must answer the same: see
 * followup-sync.test.ts (`ruleMatches` against the SQL).
 */

/** What a rule and an anchor read of a patient: the patient row and the values of its non-repeating forms. */
export type PatientFacts = {
  subProjectId: string | null;
  enrolDate: string | null;
  /** `formKey → fieldKey → value` of the patient's instance-1 records (absent = no record). */
  values: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
};

/** The forms a plan's anchor and rule read. */
export function formsRead(plan: { anchor: PlanAnchor | null; rule: PlanRule | null }): string[] {
  const keys = new Set<string>();
  if (plan.anchor?.type === 'field') keys.add(plan.anchor.formKey);
  if (plan.rule?.field) keys.add(plan.rule.field.formKey);
  return [...keys];
}

/** `eq` compares codes as text: a stored number or boolean matches its string form. */
const asText = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

/** The field condition on one value (a multiple choice matches when it contains one of the values). */
export function fieldMatches(op: 'eq' | 'filled', values: readonly string[], value: unknown): boolean {
  if (op === 'filled') return !isBlankValue(value);
  if (Array.isArray(value)) return value.some((v) => values.includes(asText(v) ?? '\u0000'));
  const text = asText(value);
  return text !== null && values.includes(text);
}

/** True when the patient follows an `auto` plan: sub-project membership (empty = all) and the field condition. */
export function ruleMatches(rule: PlanRule | null, patient: PatientFacts): boolean {
  if (!rule) return true;
  const subs = rule.subProjectIds ?? [];
  if (subs.length > 0 && (!patient.subProjectId || !subs.includes(patient.subProjectId))) return false;
  const field = rule.field;
  if (!field) return true;
  const value = patient.values.get(field.formKey)?.[field.fieldKey];
  return fieldMatches(field.op, field.values ?? [], value);
}

/** The anchor date: the enrolment date, or the anchor field's value; a partial or invalid date counts as none. */
export function anchorDate(anchor: PlanAnchor | null, patient: PatientFacts): IsoDate | null {
  if (!anchor) return null;
  const value = anchor.type === 'enrol' ? patient.enrolDate : patient.values.get(anchor.formKey)?.[anchor.fieldKey];
  return isIsoDate(value) ? value : null;
}
