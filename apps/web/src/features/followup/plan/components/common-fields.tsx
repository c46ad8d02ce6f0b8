import { Form, Input, InputNumber, Select } from 'antd';
import { useTenantDoctors } from '../../../../api/tenant-doctors';

/** Name and description of a plan. */
export function NameFields() {
  return (
    <>
      <Form.Item
        name="name"
        label="计划名称"
        rules={[
          { required: true, whitespace: true, message: '请输入计划名称' },
          { max: 100, message: '计划名称不能超过100个字符' },
        ]}
      >
        <Input placeholder="例如：心衰出院后随访" />
      </Form.Item>
      <Form.Item name="description" label="说明" rules={[{ max: 2000, message: '说明不能超过2000个字符' }]}>
        <Input.TextArea rows={2} placeholder="计划的用途、适用人群等（选填）" />
      </Form.Item>
    </>
  );
}

/** Reminder days and the default owner of new tasks. */
export function ReminderFields() {
  const doctors = useTenantDoctors();
  return (
    <>
      <Form.Item
        name="remindDaysBefore"
        label="提前提醒（天）"
        extra="在随访窗口开始前多少天提醒负责人（0 = 窗口开始当天）。"
        rules={[{ required: true, message: '请输入提醒天数' }]}
      >
        <InputNumber aria-label="提前提醒天数" min={0} max={60} precision={0} />
      </Form.Item>
      <Form.Item name="defaultOwnerId" label="默认负责人" extra="新生成的随访任务分配给此人；不选则为未分配。">
        <Select
          aria-label="默认负责人"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={doctors.isPending}
          placeholder="未分配"
          style={{ maxWidth: 320 }}
          options={(doctors.data ?? []).map((d) => ({
            value: d.id,
            label: d.departmentName ? `${d.name}（${d.departmentName}）` : d.name,
          }))}
        />
      </Form.Item>
    </>
  );
}
