import { useState } from 'react';
import { Checkbox, Modal, Typography } from 'antd';
import type { PlanVO } from '@registry/shared/contracts/followup';
import { toast } from '../../../../lib/toast';
import { useStopPlan } from '../api/stop-plan';

/** 停用: no more assignments; optionally cancel the plan's open tasks. */
export function StopPlanDialog({ plan, onClose }: { plan: PlanVO | null; onClose: () => void }) {
  const stop = useStopPlan();
  const [cancelOpenTasks, setCancelOpenTasks] = useState(false);
  const close = () => {
    setCancelOpenTasks(false);
    onClose();
  };
  const confirm = async () => {
    if (!plan) return;
    try {
      const result = await stop.mutateAsync({ id: plan.id, cancelOpenTasks });
      const cancelled = cancelOpenTasks && result ? `，已取消 ${result.count} 条未完成的随访任务` : '';
      toast.success(`随访计划已停用${cancelled}`);
      close();
    } catch {
      // The request layer showed the server's message.
    }
  };
  return (
    <Modal
      title={plan ? `停用随访计划“${plan.name}”` : '停用随访计划'}
      open={plan !== null}
      okText="停用"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={stop.isPending}
      onOk={() => void confirm()}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph>停用后不再分配新患者，也不再生成新的随访任务。已完成的随访不受影响。</Typography.Paragraph>
      <Checkbox checked={cancelOpenTasks} onChange={(e) => setCancelOpenTasks(e.target.checked)}>
        同时取消未完成的随访任务
      </Checkbox>
      {plan && plan.openTaskCount > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {`当前有 ${plan.openTaskCount} 条未完成的随访任务。`}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
