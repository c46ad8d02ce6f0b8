import { useMemo } from 'react';
import type { CohortRowVO } from '@registry/shared/contracts/retrieval';
import { MAX_LABELLED_CODES, useDictCodeLabels } from '../../../api/dict-options';
import type { ResultColumn } from './result-cells';

/**
 * The labels of the dictionary codes on the current page, per column key (`form.field`): one
 * `sys-field-dict-option/page` call per dictionary column asking for exactly the codes shown. A code with no label
 * (a missing-data code, a retired option) shows as it is.
 */
export function useDictLabels(
  columns: readonly ResultColumn[],
  rows: readonly CohortRowVO[],
): ReadonlyMap<string, ReadonlyMap<string, string>> {
  const wanted = useMemo(
    () =>
      columns
        .flatMap((c) =>
          c.definition?.type === 'dict' && c.definition.dictCode ? [{ c, dictCode: c.definition.dictCode }] : [],
        )
        .map(({ c, dictCode }) => {
          const codes = new Set<string>();
          for (const row of rows) {
            const value = row.values[c.key];
            for (const code of Array.isArray(value) ? value : [value])
              if (typeof code === 'string' && code !== '') codes.add(code);
          }
          return { key: c.key, dictCode, codes: [...codes].sort().slice(0, MAX_LABELLED_CODES) };
        })
        .filter((w) => w.codes.length > 0),
    [columns, rows],
  );
  return useDictCodeLabels(wanted);
}
