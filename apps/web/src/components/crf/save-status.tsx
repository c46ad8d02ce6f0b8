import { Typography } from 'antd';
import type { SaveState } from './use-record-save';
import type { SavedAt } from './use-record-session';

export type SaveStatusProps = {
  state: SaveState;
  dirty: boolean;
  reasonRequired: boolean;
  savedAt: SavedAt | null;
  className: string;
  /** After an autosave, say so (已自动保存); otherwise every save is 已保存. */
  sayAuto?: boolean;
  /** What to say when nothing happened here yet (null: nothing shown). */
  idle?: string | null;
};

/** The save state of a record being edited, read out to screen readers (both CRF editors). */
export function SaveStatus({
  state,
  dirty,
  reasonRequired,
  savedAt,
  className,
  sayAuto = false,
  idle = null,
}: SaveStatusProps) {
  let text: string | null = idle;
  let type: 'secondary' | 'warning' | 'danger' | 'success' = 'secondary';
  if (state === 'saving') text = '保存中…';
  else if (state === 'conflict') {
    text = '保存冲突，未保存';
    type = 'danger';
  } else if (dirty) {
    type = 'warning';
    if (state === 'invalid') text = '未保存：有需要修正的问题';
    else if (state === 'error') text = '保存失败，未保存';
    else text = reasonRequired ? '未保存（保存修改需填写原因）' : '未保存';
  } else if (state === 'saved' && savedAt) {
    text = `${sayAuto && savedAt.auto ? '已自动保存' : '已保存'} ${savedAt.at}`;
    type = 'success';
  }
  if (!text) return null;
  return (
    <Typography.Text type={type} role="status" aria-live="polite" className={className}>
      {text}
    </Typography.Text>
  );
}
