import { Form, Modal, Select, Typography } from 'antd';
import type { TenantDoctor } from '@registry/shared/contracts/project';
import { withSuccessToast } from '../../../lib/toast';
import { useAssignTasks } from '../api/assign-tasks';

const UNASSIGN = '__none__';

export type AssignDialogProps = {
  taskIds: readonly string[];
  doctors: readonly TenantDoctor[];
  onClose: () => void;
  onAssigned: () => void;
};

/** 分配给…: the owner of the selected tasks, or 取消分配. Closed tasks among them are left as they are (server rule). */
export function AssignDialog({ taskIds, doctors, onClose, onAssigned }: AssignDialogProps) {
  const [form] = Form.useForm<{ ownerId: string }>();
  const assign = useAssignTasks();
  const submit = async () => {
    const { ownerId } = await form.validateFields();
    const ok = await withSuccessToast(
      assign.mutateAsync({ taskIds: [...taskIds], ownerId: ownerId === UNASSIGN ? null : ownerId }),
    );
    if (ok) onAssigned();
  };
  return (
    <Modal
      open
      title={`分配 ${taskIds.length} 条随访任务`}
      okText="确定"
      cancelText="取消"
      confirmLoading={assign.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item name="ownerId" label="负责人" rules={[{ required: true, message: '请选择负责人' }]}>
          <Select
            aria-label="分配负责人"
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="选择医生"
            options={[
              { value: UNASSIGN, label: '取消分配（设为未分配）' },
              ...doctors.map((d) => ({
                value: d.id,
                label: d.departmentName ? `${d.name}（${d.departmentName}）` : d.name,
              })),
            ]}
          />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">已完成和失访的任务不会被重新分配。</Typography.Text>
    </Modal>
  );
}
