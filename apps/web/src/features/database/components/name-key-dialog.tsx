import { Form, Input, Modal } from 'antd';
import { FIELD_KEY_MESSAGE, FIELD_KEY_PATTERN } from '@registry/shared/forms/field-types';

export type NameKeyValues = { title: string; key: string };

export type NameKeyDialogProps = {
  open: boolean;
  /** 「新增分类」, 「重命名表单」, … */
  title: string;
  nameLabel: string;
  initial: NameKeyValues;
  /** Keys already in use (the edited item's own key excluded). */
  taken: ReadonlySet<string>;
  keyLocked?: boolean;
  onCancel: () => void;
  onSubmit: (values: NameKeyValues) => void;
};

/** Name and variable name of a category or form (the key is locked once published). */
export function NameKeyDialog({
  open,
  title,
  nameLabel,
  initial,
  taken,
  keyLocked,
  onCancel,
  onSubmit,
}: NameKeyDialogProps) {
  const [form] = Form.useForm<NameKeyValues>();

  return (
    <Modal
      title={title}
      open={open}
      okText="确定"
      cancelText="取消"
      onCancel={onCancel}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<NameKeyValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(values) => onSubmit({ title: values.title.trim(), key: values.key.trim() })}
      >
        <Form.Item
          name="title"
          label={nameLabel}
          rules={[
            { required: true, whitespace: true, message: `请输入${nameLabel}` },
            { max: 200, message: `${nameLabel}不能超过200个字符` },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="key"
          label="变量名"
          extra={keyLocked ? '已发布的变量名不可修改' : undefined}
          rules={[
            { required: true, message: '请输入变量名' },
            { pattern: FIELD_KEY_PATTERN, message: FIELD_KEY_MESSAGE },
            {
              validator: (_, value: string) =>
                value && taken.has(value.trim())
                  ? Promise.reject(new Error(`变量名 ${value} 已被使用`))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input disabled={keyLocked} className="mono" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
