import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { CohortRowVO } from '@registry/shared/contracts/retrieval';
import { dictOptionPageQuery } from '../../../api/dict-options';
import type { ResultColumn } from './result-cells';

/** The most codes one dictionary column asks labels for (a page holds at most 100 rows). */
const MAX_CODES = 200;

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
          return { key: c.key, dictCode, codes: [...codes].sort().slice(0, MAX_CODES) };
        })
        .filter((w) => w.codes.length > 0),
    [columns, rows],
  );
  return useQueries({
    queries: wanted.map((w) => ({
      ...dictOptionPageQuery({ dictCode: w.dictCode, codes: w.codes, size: w.codes.length }),
      staleTime: 5 * 60_000,
    })),
    combine: (results) => {
      const out = new Map<string, Map<string, string>>();
      wanted.forEach((w, i) => {
        const labels = new Map<string, string>();
        for (const option of results[i]?.data?.records ?? []) labels.set(option.code, option.label);
        out.set(w.key, labels);
      });
      return out;
    },
  });
}
