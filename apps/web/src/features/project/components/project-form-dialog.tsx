import { useEffect } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { MESSAGES } from '@registry/shared/constants';
import type { ProjectVO } from '@registry/shared/contracts/project';
import { PROJECT_CODE } from '@registry/shared/rules';
import { applyServerIssues } from '../../../lib/form-errors';
import { toast } from '../../../lib/toast';
import { useCreateProject } from '../api/create-project';
import { useUpdateProject } from '../api/update-project';

type Values = { code: string; name: string; diseaseArea?: string; description?: string; status?: 'draft' | 'active' };

const FIELDS = ['code', 'name', 'diseaseArea', 'description', 'status'] as const;

export type ProjectFormDialogProps = {
  open: boolean;
  /** The project edited; absent to create one. */
  project?: ProjectVO | null;
  /** Set to create a sub-project of this parent. */
  parent?: ProjectVO | null;
  onClose: () => void;
};

/** 新建/编辑项目 (or 子项目 when `parent` is given): name, code, disease area, description, initial status. */
export function ProjectFormDialog({ open, project, parent, onClose }: ProjectFormDialogProps) {
  const [form] = Form.useForm<Values>();
  const create = useCreateProject();
  const update = useUpdateProject();
  const sub = Boolean(parent ?? project?.subProject);
  const noun = sub ? '子项目' : '项目';
  const title = `${project ? '编辑' : '新建'}${noun}`;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (project) {
      form.setFieldsValue({
        code: project.projectCode,
        name: project.projectName,
        diseaseArea: project.diseaseArea ?? undefined,
        description: project.description ?? undefined,
      });
    }
  }, [open, project, form]);

  const submit = async (values: Values) => {
    const common = {
      code: values.code,
      name: values.name,
      diseaseArea: values.diseaseArea?.trim() ? values.diseaseArea : null,
      description: values.description?.trim() ? values.description : null,
    };
    try {
      if (project) await update.mutateAsync({ id: project.id, ...common });
      else await create.mutateAsync({ ...common, status: values.status ?? 'draft', parentId: parent?.id ?? null });
      toast.success(MESSAGES.operationSucceeded);
      onClose();
    } catch (error) {
      applyServerIssues(form, error, FIELDS);
    }
  };

  return (
    <Modal
      title={title}
      open={open}
      okText="确定"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ status: 'draft' }}
      >
        {parent && (
          <Form.Item label="上级项目">
            <Input value={`${parent.projectName}（${parent.projectCode}）`} disabled />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={`${noun}名称`}
          rules={[
            { required: true, whitespace: true, message: `请输入${noun}名称` },
            { max: 100, message: `${noun}名称不能超过100个字符` },
          ]}
        >
          <Input placeholder={sub ? '例如：射血分数保留型心衰亚组' : '例如：慢性心力衰竭患者登记研究'} />
        </Form.Item>
        <Form.Item
          name="code"
          label={`${noun}编号`}
          rules={[
            { required: true, whitespace: true, message: `请输入${noun}编号` },
            PROJECT_CODE.max,
            PROJECT_CODE.format,
          ]}
        >
          <Input placeholder="例如：HF-2026" />
        </Form.Item>
        {!sub && (
          <Form.Item name="diseaseArea" label="疾病领域" rules={[{ max: 50, message: '疾病领域不能超过50个字符' }]}>
            <Input placeholder="例如：心血管" />
          </Form.Item>
        )}
        <Form.Item
          name="description"
          label={sub ? '简介' : '项目简介'}
          rules={[{ max: 1000, message: '简介不能超过1000个字符' }]}
        >
          <Input.TextArea rows={3} showCount maxLength={1000} placeholder="研究目的、入组人群等" />
        </Form.Item>
        {!project && (
          <Form.Item name="status" label="状态">
            <Select
              options={[
                { value: 'draft', label: '草稿' },
                { value: 'active', label: '进行中' },
              ]}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
