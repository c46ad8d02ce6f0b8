import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { Definition, FormDefinition } from '@registry/shared/forms/definition';
import { parseLogic } from '@registry/shared/forms/logic';
import { findFormOfField } from '@registry/shared/forms/walk';
import { getFormRecord } from '../../api/form-records';
import { formRecordKeys } from '../../api/form-records';

const NO_VALUES: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The other forms whose fields this form's logic reads (show-if, formulas, rules): `[sex]` on a form without `sex`.
 * Repeating forms are left out: which instance a reference means is not defined.
 */
export function referencedForms(definition: Definition, form: FormDefinition): string[] {
  const own = new Set<string>();
  const sources: string[] = [];
  const collect = (field: { key: string; showIf?: string; formula?: string; rules?: { expr: string }[] }) => {
    own.add(field.key);
    if (field.showIf) sources.push(field.showIf);
    if (field.formula) sources.push(field.formula);
    for (const rule of field.rules ?? []) sources.push(rule.expr);
  };
  for (const field of form.fields) {
    collect(field);
    for (const column of field.fields ?? []) collect(column);
  }
  const forms = new Set<string>();
  for (const source of sources) {
    const parsed = parseLogic(source);
    if (!parsed.ok) continue;
    for (const ref of parsed.refs) {
      if (own.has(ref.key)) continue;
      const other = findFormOfField(definition, ref.key);
      if (other && !other.repeating && other.key !== form.key) forms.add(other.key);
    }
  }
  return [...forms].sort();
}

/**
 * The values of the patient's other forms this form's logic reads (the engine's `external`: show-if, formulas and rules
 * of `[sex]` on a form without `sex`), read with `form-record/detail`, stable between loads. `enabled` false (the user
 * may not read the patient's records) leaves them blank.
 */
export function useExternalValues(
  patientId: string,
  definition: Definition,
  form: FormDefinition | undefined,
  enabled = true,
): { values: Readonly<Record<string, unknown>>; loading: boolean } {
  const formKeys = useMemo(
    () => (form && enabled && patientId ? referencedForms(definition, form) : []),
    [definition, form, enabled, patientId],
  );
  return useQueries({
    queries: formKeys.map((formKey) => {
      const query = { patientId, formKey, instance: 1 };
      return {
        queryKey: formRecordKeys.detail(query),
        queryFn: () => getFormRecord(query),
        staleTime: 0,
        gcTime: 60_000,
      };
    }),
    combine: combineValues,
  });
}

/** Module-level, so TanStack Query keeps the combined answer's identity while the answers do not change. */
function combineValues(results: readonly { data?: { data: Record<string, unknown> }; isPending: boolean }[]): {
  values: Readonly<Record<string, unknown>>;
  loading: boolean;
} {
  const loading = results.some((r) => r.isPending);
  if (results.length === 0) return { values: NO_VALUES, loading };
  const values: Record<string, unknown> = {};
  for (const r of results) if (r.data) Object.assign(values, r.data.data);
  return { values, loading };
}
