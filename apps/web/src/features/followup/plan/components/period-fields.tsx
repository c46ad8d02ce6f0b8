import { Form, InputNumber, List, Select, Space, Typography } from 'antd';
import { isIsoDate, periodicDates, scheduleVisit } from '@registry/shared/followup/schedule';
import type { PlanFormValues } from '../hooks/plan-form';
import { DateItem } from './date-item';
import { METHOD_OPTIONS } from './options';
import { WindowInputs } from './window-inputs';

const whole = (n: unknown, min: number, max: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** The dates a period gives (as the server generates its visits `第1次随访` …), with their windows. */
function PeriodPreview() {
  const form = Form.useFormInstance<PlanFormValues>();
  const period = Form.useWatch('period', form);
  const { startDate, everyMonths, times } = period ?? {};
  if (!isIsoDate(startDate) || !whole(everyMonths, 1, 120) || !whole(times, 1, 100))
    return <Typography.Text type="secondary">填写首次随访日期、间隔和次数后，这里显示生成的随访日期。</Typography.Text>;
  const before = whole(period?.windowBefore, 0, 365) ? period.windowBefore : 0;
  const after = whole(period?.windowAfter, 0, 365) ? period.windowAfter : 0;
  const rows = periodicDates(startDate, everyMonths, times).map((date, i) => ({
    name: `第${i + 1}次随访`,
    ...scheduleVisit({ fixedDate: date, windowBefore: before, windowAfter: after }, null)!,
  }));
  return (
    <List
      size="small"
      bordered
      header={<Typography.Text strong>生成的随访日期（共 {rows.length} 次）</Typography.Text>}
      dataSource={rows}
      aria-label="生成的随访日期"
      renderItem={(row) => (
        <List.Item>
          <Space size={16}>
            <span>{row.name}</span>
            <span data-testid="period-date">{row.dueDate}</span>
            <Typography.Text type="secondary">
              窗口 {row.windowStart} ~ {row.windowEnd}
            </Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}

/** A fixed plan given as a period: first date, every N months, M times; each visit's window, forms and method. */
export function PeriodFields({ formOptions }: { formOptions: { value: string; label: string }[] }) {
  return (
    <>
      <Space wrap align="start" size={16}>
        <DateItem
          name={['period', 'startDate']}
          label="首次随访日期"
          ariaLabel="首次随访日期"
          rules={[{ required: true, message: '请选择首次随访日期' }]}
        />
        <Form.Item
          name={['period', 'everyMonths']}
          label="间隔（月）"
          rules={[{ required: true, message: '请输入间隔月数' }]}
        >
          <InputNumber aria-label="间隔月数" min={1} max={120} precision={0} />
        </Form.Item>
        <Form.Item name={['period', 'times']} label="随访次数" rules={[{ required: true, message: '请输入随访次数' }]}>
          <InputNumber aria-label="随访次数" min={1} max={100} precision={0} />
        </Form.Item>
        <Form.Item label="窗口期（天）" required>
          <WindowInputs before={['period', 'windowBefore']} after={['period', 'windowAfter']} label="周期" />
        </Form.Item>
        <Form.Item name={['period', 'formKeys']} label="随访表单">
          <Select
            aria-label="周期随访表单"
            mode="multiple"
            options={formOptions}
            style={{ minWidth: 220 }}
            placeholder="选择表单"
          />
        </Form.Item>
        <Form.Item
          name={['period', 'contactMethod']}
          label="随访方式"
          rules={[{ required: true, message: '请选择随访方式' }]}
        >
          <Select aria-label="周期随访方式" options={METHOD_OPTIONS} style={{ width: 100 }} />
        </Form.Item>
      </Space>
      <PeriodPreview />
    </>
  );
}
