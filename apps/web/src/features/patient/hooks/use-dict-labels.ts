import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { PatientListItem } from '@registry/shared/contracts/patient';
import { dictOptionPageQuery } from '../../../api/dict-options';
import type { ListField } from './list-fields';

/**
 * The labels of the dictionary codes shown on the current page, per field key: one `sys-field-dict-option/page` call
 * per dictionary column asking for exactly the codes on the page.
 */
export function useDictLabels(
  fields: readonly ListField[],
  rows: readonly PatientListItem[],
): ReadonlyMap<string, ReadonlyMap<string, string>> {
  const wanted = useMemo(
    () =>
      fields
        .filter((f) => f.filter === 'dict' && f.dictCode)
        .map((f) => {
          const codes = new Set<string>();
          for (const row of rows) {
            const value = row.fields[f.key];
            for (const code of Array.isArray(value) ? value : [value])
              if (typeof code === 'string' && code !== '' && !f.missingCodes.some((m) => m.code === code))
                codes.add(code);
          }
          return { field: f, codes: [...codes].sort() };
        })
        .filter((w) => w.codes.length > 0),
    [fields, rows],
  );
  return useQueries({
    queries: wanted.map((w) => ({
      ...dictOptionPageQuery({
        dictCode: w.field.dictCode,
        codes: w.codes.slice(0, 200),
        size: Math.min(w.codes.length, 200),
      }),
      staleTime: 5 * 60_000,
    })),
    combine: (results) => {
      const out = new Map<string, Map<string, string>>();
      wanted.forEach((w, i) => {
        const labels = new Map<string, string>();
        for (const option of results[i]?.data?.records ?? []) labels.set(option.code, option.label);
        out.set(w.field.key, labels);
      });
      return out;
    },
  });
}
