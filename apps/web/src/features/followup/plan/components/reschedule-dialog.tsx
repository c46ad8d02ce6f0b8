import { Button, Modal } from 'antd';

/**
 * Asked when a plan that patients follow changes its schedule: re-schedule their open tasks (true) or not (false).
 * Closing the dialog saves nothing.
 */
export function RescheduleDialog({
  patientCount,
  open,
  onAnswer,
  onCancel,
}: {
  patientCount: number;
  open: boolean;
  onAnswer: (reschedule: boolean) => void;
  onCancel: () => void;
}) {
  return (
    <Modal
      title="计划的随访时间已修改"
      open={open}
      onCancel={onCancel}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          取消
        </Button>,
        <Button key="keep" onClick={() => onAnswer(false)}>
          不重新安排
        </Button>,
        <Button key="reschedule" type="primary" onClick={() => onAnswer(true)}>
          重新安排
        </Button>,
      ]}
    >
      {`已有 ${patientCount} 名患者在执行此计划。是否按新计划重新安排他们未完成的随访任务？已完成的随访不受影响。`}
    </Modal>
  );
}
