import type { FormDefinition } from '@registry/shared/forms/definition';
import { parseLogic } from '@registry/shared/forms/logic';
import { evaluateForm, isBlankValue, type EvaluateContext } from '@registry/shared/forms/record';

/** The keys of a form's top-level fields (what the form gives other forms as cross-form values). */
export const fieldKeysOf = (form: FormDefinition): Set<string> => new Set(form.fields.map((f) => f.key));

/** Whether a calculated field of `form` reads a field of another form among `keys` (a key not of `form` itself). */
export function calcsRead(form: FormDefinition, keys: ReadonlySet<string>): boolean {
  const own = fieldKeysOf(form);
  for (const field of form.fields) {
    if (field.type !== 'calc' || !field.formula) continue;
    const parsed = parseLogic(field.formula);
    if (parsed.ok && parsed.refs.some((r) => !own.has(r.key) && keys.has(r.key))) return true;
  }
  return false;
}

/**
 * The stored data of a record with its top-level calculated fields computed again against the patient's other forms
 * as they are now (only the calculated values change; a value computed blank is removed, as a save stores it).
 */
export function recomputeCalcs(
  form: FormDefinition,
  data: Readonly<Record<string, unknown>>,
  ctx: EvaluateContext,
): Record<string, unknown> {
  const computed = evaluateForm(form, data, ctx).data;
  const out: Record<string, unknown> = { ...data };
  for (const field of form.fields) {
    if (field.type !== 'calc') continue;
    const value = computed[field.key];
    if (isBlankValue(value)) delete out[field.key];
    else out[field.key] = value;
  }
  return out;
}
