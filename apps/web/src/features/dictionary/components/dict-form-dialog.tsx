import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import type { DictVO } from '@registry/shared/contracts/dictionary';
import { DICT_CODE } from '@registry/shared/rules';
import { applyServerIssues } from '../../../lib/form-errors';
import { ApiError } from '../../../lib/request';
import { withSuccessToast } from '../../../lib/toast';
import { useCreateDict } from '../api/create-dict';
import { useUpdateDict } from '../api/update-dict';

type Values = { code: string; name: string; description?: string };
const FIELDS = ['code', 'name', 'description'] as const;

/** 新建字典 / 编辑字典: code (fixed once created), name, description. */
export function DictFormDialog({
  open,
  dict,
  onClose,
  onSaved,
}: {
  open: boolean;
  dict?: DictVO | null;
  onClose: () => void;
  onSaved?: (dict: DictVO) => void;
}) {
  const [form] = Form.useForm<Values>();
  const create = useCreateDict();
  const update = useUpdateDict();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (dict) form.setFieldsValue({ code: dict.code, name: dict.name, description: dict.description ?? '' });
  }, [open, dict, form]);

  const submit = async (values: Values) => {
    const action = dict
      ? update.mutateAsync({ id: dict.id, name: values.name, description: values.description?.trim() || null })
      : create.mutateAsync({
          code: values.code,
          name: values.name,
          ...(values.description?.trim() ? { description: values.description } : {}),
        });
    action.then(onSaved, (error: unknown) => {
      if (applyServerIssues(form, error, FIELDS)) return;
      if (error instanceof ApiError && error.status === 409)
        form.setFields([{ name: 'code', errors: [error.message] }]);
    });
    if (await withSuccessToast(action)) onClose();
  };

  return (
    <Modal
      title={dict ? '编辑字典' : '新建字典'}
      open={open}
      okText="确定"
      cancelText="取消"
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          name="code"
          label="字典编码"
          extra={dict ? '编码创建后不能修改' : '表单的字典字段按编码引用，例如 nyha_class'}
          rules={[{ required: true, whitespace: true, message: '请输入字典编码' }, DICT_CODE.max, DICT_CODE.format]}
        >
          <Input disabled={Boolean(dict)} placeholder="例如：nyha_class" />
        </Form.Item>
        <Form.Item
          name="name"
          label="字典名称"
          rules={[
            { required: true, whitespace: true, message: '请输入字典名称' },
            { max: 100, message: '字典名称不能超过100个字符' },
          ]}
        >
          <Input placeholder="例如：NYHA 心功能分级" />
        </Form.Item>
        <Form.Item name="description" label="说明" rules={[{ max: 500, message: '字典说明不能超过500个字符' }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
