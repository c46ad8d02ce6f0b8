import { Alert, Form, Input, Modal, Typography } from 'antd';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { useDeletePatients } from '../api/delete-patients';

import { MAX_DELETE, type DeleteTarget } from './delete-limit';

export { MAX_DELETE, type DeleteTarget };

type Values = { reason: string };

/**
 * 删除患者 (one or a batch): the patients named, a reason required (kept in the audit trail), all or nothing. The
 * dialog is mounted per use (`key`), so each opens empty.
 */
export function DeletePatientsDialog({
  targets,
  onClose,
  onDeleted,
}: {
  targets: readonly DeleteTarget[];
  onClose: () => void;
  onDeleted: (ids: readonly string[]) => void;
}) {
  const [form] = Form.useForm<Values>();
  const remove = useDeletePatients();
  const tooMany = targets.length > MAX_DELETE;
  const names = targets.map((t) => t.patientNo);
  const listed = names.length > 12 ? `${names.slice(0, 12).join('、')} 等 ${names.length} 名` : names.join('、');

  const submit = async ({ reason }: Values) => {
    try {
      const { deleted } = await remove.mutateAsync({ ids: targets.map((t) => t.id), reason: reason.trim() });
      toast.success(`已删除 ${deleted} 名患者`);
      onDeleted(targets.map((t) => t.id));
    } catch (error) {
      applyServerIssues(form, error, ['reason']);
    }
  };

  return (
    <Modal
      open
      title={targets.length > 1 ? `批量删除患者（${targets.length}）` : '删除患者'}
      okText="确认删除"
      okButtonProps={{ danger: true, disabled: tooMany }}
      cancelText="取消"
      confirmLoading={remove.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>
        将删除患者 <Typography.Text strong>{listed}</Typography.Text>
        及其表单数据。删除后患者不再出现在列表中，编号不会被再次使用；删除记录和原因保存在操作日志中。
      </Typography.Paragraph>
      {tooMany && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={`一次最多删除${MAX_DELETE}名患者`} />
      )}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="reason"
          label="删除原因"
          rules={[
            { required: true, whitespace: true, message: '请填写删除原因' },
            { max: 500, message: '删除原因不能超过500个字符' },
          ]}
        >
          <Input.TextArea autoFocus rows={3} maxLength={500} showCount placeholder="例如：重复录入，保留 C01-0007" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
