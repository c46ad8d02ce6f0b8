import { useCallback } from 'react';
import { Button, Tooltip } from 'antd';
import { CheckCircleOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { ReasonRequest } from '../../../components/crf/reason-dialog';
import type { Busy } from '../../../components/crf/use-record-commands';
import type { RecordSession } from '../../../components/crf/use-record-session';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { toast } from '../../../lib/toast';

export type StatusAction = 'verify' | 'lock' | 'unlock';

/** 核查 / 锁定 after a confirmation, 解锁 with a reason; the record follows the server's answer. */
export function useStatusActions(
  session: RecordSession<FormRecordVO>,
  askReason: (request: ReasonRequest) => Promise<string | null>,
  run: <T>(kind: 'status', work: () => Promise<T>) => Promise<T>,
) {
  const { modal } = useFeedback();
  const { changeStatus } = session;
  return useCallback(
    async (action: StatusAction) => {
      let why: string | undefined;
      if (action === 'unlock') {
        const answer = await askReason({ title: '解锁表单', description: '解锁后表单可以再次修改。', okText: '解锁' });
        if (!answer) return;
        why = answer;
      } else {
        const go = await modal.confirm({
          title: action === 'verify' ? '核查表单' : '锁定表单',
          content:
            action === 'verify'
              ? '确认该表单的数据已与源文件核对无误？核查后修改数据将需要重新核查。'
              : '锁定后任何人都不能修改该表单，直到有权限的人解锁。',
          okText: action === 'verify' ? '核查通过' : '锁定',
          cancelText: '取消',
        });
        if (!go) return;
      }
      await run('status', async () => {
        const ok = await changeStatus(action, why);
        if (ok) toast.success(action === 'verify' ? '已核查' : action === 'lock' ? '已锁定' : '已解锁');
      });
    },
    [askReason, modal, run, changeStatus],
  );
}

/** The status buttons a permission offers: 核查 a submitted record, 锁定 a submitted or verified one, 解锁. */
export function StatusButtons({
  record,
  dirty,
  busy,
  canSdv,
  canLock,
  onAction,
}: {
  record: FormRecordVO;
  dirty: boolean;
  busy: Busy;
  canSdv: boolean;
  canLock: boolean;
  onAction: (action: StatusAction) => void;
}) {
  const status = record.status;
  const blockedByDirty = dirty ? '请先保存修改' : undefined;
  return (
    <>
      {canSdv && status === 'submitted' && record.id && (
        <Tooltip title={blockedByDirty}>
          <Button
            icon={<CheckCircleOutlined />}
            disabled={dirty}
            loading={busy === 'status'}
            onClick={() => onAction('verify')}
          >
            核查
          </Button>
        </Tooltip>
      )}
      {canLock && (status === 'submitted' || status === 'verified') && record.id && (
        <Tooltip title={blockedByDirty}>
          <Button icon={<LockOutlined />} disabled={dirty} onClick={() => onAction('lock')}>
            锁定
          </Button>
        </Tooltip>
      )}
      {canLock && status === 'locked' && (
        <Button icon={<UnlockOutlined />} onClick={() => onAction('unlock')}>
          解锁
        </Button>
      )}
    </>
  );
}
