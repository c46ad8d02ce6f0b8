import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PageColumnConfig, PageConfig, PageKey } from '@registry/shared/contracts/page-config';
import { usePageConfig } from '../api/get-page-config';
import { useResetPageConfig } from '../api/reset-page-config';
import { savePageConfig } from '../api/save-page-config';

/** A column the page can show, with its default visibility. */
export type AvailableColumn = { key: string; defaultVisible: boolean };

/** How long the layout must stay unchanged before it is saved (a drag or a width typed digit by digit is one save). */
export const LAYOUT_SAVE_DELAY_MS = 800;

/**
 * The layout to show: the saved columns the page still has, in the saved order, then the page's other columns as by
 * default (a CRF column flagged after the layout was saved appears at the end).
 */
export function resolveLayout(config: PageConfig | null, available: readonly AvailableColumn[]): PageColumnConfig[] {
  const byKey = new Map(available.map((c) => [c.key, c]));
  const out: PageColumnConfig[] = [];
  const seen = new Set<string>();
  for (const column of config?.columns ?? []) {
    if (!byKey.has(column.key) || seen.has(column.key)) continue;
    seen.add(column.key);
    out.push(
      column.width !== undefined
        ? { key: column.key, visible: column.visible, width: column.width }
        : { key: column.key, visible: column.visible },
    );
  }
  for (const column of available)
    if (!seen.has(column.key)) out.push({ key: column.key, visible: column.defaultVisible });
  return out;
}

const config = (next: PageColumnConfig[], size: number | undefined): PageConfig =>
  size !== undefined ? { columns: next, pageSize: size } : { columns: next };

export type ColumnLayout = {
  /** Every available column in display order with its visibility and width. */
  columns: PageColumnConfig[];
  pageSize: number | undefined;
  /** The saved layout was read (or could not be: the default then). */
  ready: boolean;
  /** The layout differs from the default (恢复默认 has something to do). */
  customised: boolean;
  change: (columns: PageColumnConfig[]) => void;
  setWidth: (key: string, width: number | undefined) => void;
  setPageSize: (size: number) => void;
  reset: () => Promise<void>;
};

/**
 * The user's layout of a table page through `page-config-custom`: restored on load, every change applied at once and
 * saved after a pause (and when the page is left), 恢复默认 deletes the saved one.
 */
export function useColumnLayout(pageKey: PageKey, available: readonly AvailableColumn[]): ColumnLayout {
  const saved = usePageConfig(pageKey);
  const resetCall = useResetPageConfig();
  // The user's edits of this visit; null = as saved.
  const [edited, setEdited] = useState<PageConfig | null>(null);
  const base = edited ?? saved.data?.config ?? null;
  const columns = useMemo(() => resolveLayout(base, available), [base, available]);

  const pending = useRef<PageConfig | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const config = pending.current;
    pending.current = null;
    // A failed save was shown by the request layer; the layout stays as the user left it on the page.
    if (config) void savePageConfig({ pageKey, config }).catch(() => undefined);
  }, [pageKey]);
  useEffect(() => flush, [flush]);

  const commit = useCallback(
    (config: PageConfig) => {
      setEdited(config);
      pending.current = config;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flush, LAYOUT_SAVE_DELAY_MS);
    },
    [flush],
  );

  const pageSize = base?.pageSize;
  // The callbacks stay the same between renders (the table's memoised columns hold them); they read the latest layout.
  const latest = useRef({ columns, pageSize });
  useEffect(() => {
    latest.current = { columns, pageSize };
  }, [columns, pageSize]);
  const change = useCallback((next: PageColumnConfig[]) => commit(config(next, latest.current.pageSize)), [commit]);
  const setWidth = useCallback(
    (key: string, width: number | undefined) =>
      commit(
        config(
          latest.current.columns.map((c) => {
            if (c.key !== key) return c;
            const { width: _old, ...rest } = c;
            return width === undefined ? rest : { ...rest, width };
          }),
          latest.current.pageSize,
        ),
      ),
    [commit],
  );
  const setPageSize = useCallback((size: number) => commit(config(latest.current.columns, size)), [commit]);
  const { mutateAsync: resetSaved } = resetCall;
  const reset = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
    await resetSaved(pageKey);
    setEdited(null);
  }, [resetSaved, pageKey]);

  return {
    columns,
    pageSize,
    ready: !saved.isPending,
    customised: base !== null,
    change,
    setWidth,
    setPageSize,
    reset,
  };
}
