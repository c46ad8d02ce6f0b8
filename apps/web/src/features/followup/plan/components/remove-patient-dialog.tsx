import { Form, Input, Modal } from 'antd';
import type { AssignmentVO } from '@registry/shared/contracts/followup';
import { applyServerIssues } from '../../../../lib/form-errors';
import { toast } from '../../../../lib/toast';
import { useRemoveAssignments } from '../api/remove-assignments';

/** 移出: the patient stops following the plan; their open tasks are cancelled with the reason. */
export function RemovePatientDialog({ assignment, onClose }: { assignment: AssignmentVO | null; onClose: () => void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const remove = useRemoveAssignments();
  const submit = async ({ reason }: { reason: string }) => {
    if (!assignment) return;
    try {
      await remove.mutateAsync({
        planId: assignment.planId,
        patientIds: [assignment.patientId],
        reason: reason.trim(),
      });
      toast.success(`已将患者 ${assignment.patientNo} 移出计划`);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, ['reason']);
    }
  };
  return (
    <Modal
      title={assignment ? `移出患者 ${assignment.patientNo}（${assignment.patientName}）` : '移出患者'}
      open={assignment !== null}
      okText="移出"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={remove.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} preserve={false}>
        <Form.Item
          name="reason"
          label="移出原因"
          extra="患者未完成的随访任务将被取消，已完成的随访保留。"
          rules={[
            { required: true, whitespace: true, message: '请输入原因' },
            { max: 500, message: '原因不能超过500个字符' },
          ]}
        >
          <Input.TextArea rows={3} aria-label="移出原因" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
