import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';

/** Reasons a coordinator gives most often (a click fills them in; they can still be edited). */
export const COMMON_REASONS = ['录入错误更正', '补充缺失数据', '源文件已更新', '回复质疑后修改'] as const;

export type ReasonRequest = {
  title: string;
  /** What will happen (shown above the input). */
  description?: ReactNode;
  okText?: string;
  /** Offer the common reasons of a data change. */
  suggestions?: readonly string[];
  danger?: boolean;
};

type Pending = ReasonRequest & { resolve: (reason: string | null) => void };

/** The modal loads when a reason is first asked for (quality P7: antd's form stays out of the edit page's start). */
const ReasonDialog = lazy(() => import('./reason-dialog-modal').then((module) => ({ default: module.ReasonDialog })));

/**
 * Asks for a reason in a modal: `ask(...)` resolves the trimmed reason, or null when cancelled. Render `holder` once
 * in the component that asks.
 */
export function useReasonPrompt() {
  const [pending, setPending] = useState<Pending | null>(null);
  const ask = useCallback(
    (request: ReasonRequest) => new Promise<string | null>((resolve) => setPending({ ...request, resolve })),
    [],
  );
  const holder = pending ? (
    <Suspense fallback={null}>
      <ReasonDialog
        request={pending}
        onDone={(reason) => {
          pending.resolve(reason);
          setPending(null);
        }}
      />
    </Suspense>
  ) : null;
  return { ask, holder };
}
