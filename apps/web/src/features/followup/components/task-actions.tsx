import { lazy, Suspense, useState } from 'react';
import { Button, Space } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import { CheckOutlined, RollbackOutlined, StopOutlined } from '@ant-design/icons';
import type { TaskListItem } from '@registry/shared/contracts/followup';
import { ApiError } from '../../../lib/request';
import { toast } from '../../../lib/toast';
import { completeTask } from '../api/complete-task';

/** The dialogs load when first opened, not with the page (quality P7). */
const LostDialog = lazy(() => import('./lost-dialog').then((module) => ({ default: module.LostDialog })));
const ReopenDialog = lazy(() => import('./reopen-dialog').then((module) => ({ default: module.ReopenDialog })));

export type TaskActionsProps = {
  task: TaskListItem;
  /** `followup.edit`. */
  canEdit: boolean;
  onChanged: () => Promise<unknown>;
};

/** 完成随访 (with the server's refusal shown), 标记失访, 重新打开 a done or lost task. */
export function TaskActions({ task, canEdit, onChanged }: TaskActionsProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [completing, setCompleting] = useState(false);
  const [dialog, setDialog] = useState<null | 'lost' | 'reopen'>(null);
  if (!canEdit) return null;
  const open = task.status === 'open';
  const reopenable = task.status === 'done' || task.status === 'lost';

  const complete = async () => {
    setCompleting(true);
    setRefusal(null);
    try {
      await completeTask({ taskId: task.id, rowVersion: task.rowVersion });
      toast.success('随访已完成');
      await onChanged();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || error.status === 400)) setRefusal(error.message);
    } finally {
      setCompleting(false);
    }
  };
  const done = () => {
    setDialog(null);
    void onChanged();
  };

  return (
    <div className="followup-section">
      {refusal && (
        <LazyAlert
          type="warning"
          showIcon
          closable={{ onClose: () => setRefusal(null) }}
          style={{ marginBottom: 12 }}
          title={`不能完成随访：${refusal}`}
        />
      )}
      <Space wrap>
        {open && (
          <Button type="primary" icon={<CheckOutlined />} loading={completing} onClick={() => void complete()}>
            完成随访
          </Button>
        )}
        {open && (
          <Button danger icon={<StopOutlined />} onClick={() => setDialog('lost')}>
            标记失访
          </Button>
        )}
        {reopenable && (
          <Button icon={<RollbackOutlined />} onClick={() => setDialog('reopen')}>
            重新打开
          </Button>
        )}
      </Space>
      <Suspense fallback={null}>
        {dialog === 'lost' && <LostDialog taskId={task.id} onClose={() => setDialog(null)} onDone={done} />}
        {dialog === 'reopen' && <ReopenDialog taskId={task.id} onClose={() => setDialog(null)} onDone={done} />}
      </Suspense>
    </div>
  );
}
