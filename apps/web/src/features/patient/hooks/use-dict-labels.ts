import { useMemo } from 'react';
import type { PatientListItem } from '@registry/shared/contracts/patient';
import { useDictCodeLabels } from '../../../api/dict-options';
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
          return { key: f.key, dictCode: f.dictCode!, codes: [...codes].sort() };
        })
        .filter((w) => w.codes.length > 0),
    [fields, rows],
  );
  return useDictCodeLabels(wanted);
}
