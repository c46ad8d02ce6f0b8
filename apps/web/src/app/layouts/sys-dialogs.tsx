import { useState } from 'react';
import { Empty, Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { listProjects } from '../../features/project/api/list-projects';
import { USER_MENU_LABELS } from './user-menu';

/** The system administrator's dialogs of the user menu (seed §2), loaded when first opened. */

/** 切换租户: the tenant code to act in. `onSubmit` switches (its failure was shown by the request layer). */
export function TenantDialog({
  onSubmit,
  onClose,
}: {
  onSubmit: (tenantCode: string) => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ tenantCode: string }>();
  const [saving, setSaving] = useState(false);

  const submit = async ({ tenantCode }: { tenantCode: string }) => {
    setSaving(true);
    try {
      await onSubmit(tenantCode.trim());
      onClose();
    } catch {
      // The request layer showed the message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={USER_MENU_LABELS.switchTenant}
      open
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="tenantCode" label="租户编码" rules={[{ required: true, message: '请输入租户编码' }]}>
          <Input placeholder="请输入要切换到的租户编码" autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 配置表单 without a current project: the administrator picks one of the tenant's projects. */
export function FormProjectDialog({
  onOpen,
  onClose,
}: {
  onOpen: (project: { id: string; name: string }) => void;
  onClose: () => void;
}) {
  const [projectId, setProjectId] = useState<string | undefined>(undefined);
  const projects = useQuery({
    queryKey: ['web-project', 'list', 'all', ''],
    queryFn: () => listProjects(''),
  });

  const submit = () => {
    const project = projects.data?.projectVOs.find((p) => p.id === projectId);
    if (project) onOpen({ id: project.id, name: project.projectName });
  };

  return (
    <Modal
      title="选择要配置表单的项目"
      open
      okText="打开"
      cancelText="取消"
      okButtonProps={{ disabled: !projectId }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      {projects.data && projects.data.projectVOs.length === 0 ? (
        <Empty description="当前租户没有项目，请先切换到项目所在的租户" />
      ) : (
        <Select
          aria-label="项目"
          style={{ width: '100%' }}
          loading={projects.isPending}
          placeholder="请选择项目"
          value={projectId}
          onChange={setProjectId}
          showSearch={{ optionFilterProp: 'label' }}
          options={(projects.data?.projectVOs ?? []).map((p) => ({
            value: p.id,
            label: `${p.projectName}（${p.projectCode}）`,
          }))}
        />
      )}
    </Modal>
  );
}
