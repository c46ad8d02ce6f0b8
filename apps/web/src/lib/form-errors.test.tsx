import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Form, Input, type FormInstance } from 'antd';
import { ApiError } from './request';
import { applyServerIssues } from './form-errors';

function Harness({ onReady }: { onReady: (form: FormInstance) => void }) {
  const [form] = Form.useForm();
  onReady(form);
  return (
    <Form form={form}>
      <Form.Item name="phone" label="手机号">
        <Input />
      </Form.Item>
    </Form>
  );
}

describe('applyServerIssues', () => {
  it('should show the server message under the field when a 400 names it', async () => {
    let form: FormInstance | undefined;
    render(<Harness onReady={(f) => (form = f)} />);
    const error = new ApiError(400, '手机号：手机号应为11位中国大陆手机号', {
      status: 400,
      message: '手机号：手机号应为11位中国大陆手机号',
      issues: [
        { path: 'phone', message: '手机号：手机号应为11位中国大陆手机号' },
        { path: 'other', message: '不在表单里' },
      ],
    });
    let marked = false;
    act(() => {
      marked = applyServerIssues(form as FormInstance, error, ['phone']);
    });
    expect(marked).toBe(true);
    expect(await screen.findByText('手机号：手机号应为11位中国大陆手机号')).toBeInTheDocument();
    expect(screen.queryByText('不在表单里')).not.toBeInTheDocument();
  });

  it('should mark nothing when the error is not a server validation error', () => {
    let form: FormInstance | undefined;
    render(<Harness onReady={(f) => (form = f)} />);
    expect(applyServerIssues(form as FormInstance, new Error('network'), ['phone'])).toBe(false);
  });
});
