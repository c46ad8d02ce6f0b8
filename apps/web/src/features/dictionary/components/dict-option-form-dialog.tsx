import { useEffect } from 'react';
import { Form, Input, InputNumber, Modal } from 'antd';
import type { DictOptionVO, DictVO } from '@registry/shared/contracts/dictionary';
import { DICT_OPTION_CODE } from '@registry/shared/rules';
import { applyServerIssues } from '../../../lib/form-errors';
import { ApiError } from '../../../lib/request';
import { withSuccessToast } from '../../../lib/toast';
import { useCreateDictOption } from '../api/create-dict-option';
import { useUpdateDictOption } from '../api/update-dict-option';

type Values = { code: string; label: string; parentCode?: string; sort?: number | null };
const FIELDS = ['code', 'label', 'parentCode', 'sort'] as const;

/** 新增选项 / 编辑选项 of an own list: code (stable once created), name, parent code, sort order. */
export function DictOptionFormDialog({
  open,
  dict,
  option,
  onClose,
}: {
  open: boolean;
  dict: DictVO;
  option?: DictOptionVO | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const create = useCreateDictOption();
  const update = useUpdateDictOption();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (option)
      form.setFieldsValue({
        code: option.code,
        label: option.label,
        parentCode: option.parentCode ?? '',
        sort: option.sort,
      });
  }, [open, option, form]);

  const submit = async (values: Values) => {
    const sort = typeof values.sort === 'number' ? values.sort : undefined;
    const action = option
      ? update.mutateAsync({ id: option.id, label: values.label, ...(sort !== undefined ? { sort } : {}) })
      : create.mutateAsync({
          dictId: dict.id,
          code: values.code,
          label: values.label,
          ...(values.parentCode?.trim() ? { parentCode: values.parentCode.trim() } : {}),
          ...(sort !== undefined ? { sort } : {}),
        });
    action.catch((error: unknown) => {
      if (applyServerIssues(form, error, FIELDS)) return;
      if (error instanceof ApiError && error.status === 409)
        form.setFields([{ name: 'code', errors: [error.message] }]);
    });
    if (await withSuccessToast(action)) onClose();
  };

  return (
    <Modal
      title={option ? '编辑选项' : `新增选项 · ${dict.name}`}
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
          label="选项编码"
          extra={option ? '编码是录入数据中保存的值，创建后不能修改' : '录入数据中保存的值'}
          rules={[
            { required: true, whitespace: true, message: '请输入选项编码' },
            DICT_OPTION_CODE.max,
            DICT_OPTION_CODE.format,
          ]}
        >
          <Input disabled={Boolean(option)} />
        </Form.Item>
        <Form.Item
          name="label"
          label="选项名称"
          rules={[
            { required: true, whitespace: true, message: '请输入选项名称' },
            { max: 200, message: '选项名称不能超过200个字符' },
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="parentCode"
          label="上级编码"
          extra="分级字典填写上级选项的编码，否则留空"
          rules={[DICT_OPTION_CODE.max, DICT_OPTION_CODE.format]}
        >
          <Input disabled={Boolean(option)} />
        </Form.Item>
        <Form.Item name="sort" label="排序" extra="数字小的在前；留空则排在最后">
          <InputNumber aria-label="排序" min={0} max={1000000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
