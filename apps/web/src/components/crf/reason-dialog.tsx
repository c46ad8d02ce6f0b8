import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { CHANGE_REASON, RECORD_STATUS_LABELS, type RecordStatus } from '@registry/shared/contracts/form-record-codes';

/** Reasons a coordinator gives most often (a click fills them in; they can still be edited). */
export const COMMON_REASONS = ['录入错误更正', '补充缺失数据', '源文件已更新', '回复质疑后修改'] as const;

export type ReasonRequest = {
  title: string;
  /** The input's label ('原因' unless told), which its messages name: '请填写修改原因' for `CHANGE_REASON.label`. */
  label?: string;
  /** What will happen (shown above the input). */
  description?: ReactNode;
  okText?: string;
  /** Offer the common reasons of a data change. */
  suggestions?: readonly string[];
  danger?: boolean;
};

/**
 * The reason of a change to a submitted record (shared forms/change-reason: asked once per save), the same in both
 * CRF editors; `description` says the record's state.
 */
export function changeReasonRequest(description: ReactNode): ReasonRequest {
  return {
    title: '填写修改原因',
    label: CHANGE_REASON.label,
    description,
    okText: '保存修改',
    suggestions: COMMON_REASONS,
  };
}

/** The reason of a change to a record that is `status` (submitted or verified): what saving it means. */
export function recordChangeReason(status: RecordStatus | null): ReasonRequest {
  return changeReasonRequest(
    `该表单${status ? RECORD_STATUS_LABELS[status] : ''}，修改数据需要说明原因。${
      status === 'verified' ? '保存后表单将回到“已提交”，需重新核查。' : ''
    }`,
  );
}

type Pending = ReasonRequest & { resolve: (reason: string | null) => void };

/** The modal loads when a reason is first asked for (quality P7: antd's form stays out of the edit page's start). */
const ReasonDialog = lazy(() => import('./reason-dialog-modal').then((module) => ({ default: module.ReasonDialog })));

/**
 * The reason dialog of both CRF editors (the patient record and the follow-up task) and of the record's other
 * reasons (unlock, delete). Asks for a reason in a modal: `ask(...)` resolves the trimmed reason, or null when cancelled. Render `holder` once
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
