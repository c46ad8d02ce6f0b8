import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_MISSING_CODES, type FormDefinition } from '@registry/shared/forms/definition';
import { renderWithProviders } from '../../test/render';
import { CrfForm } from './crf-form';

// The RE2 engine's chunk cannot be loaded (a network failure, a deploy that removed it).
vi.mock('@registry/shared/forms/pattern-re2', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const form: FormDefinition = {
  key: 'baseline',
  title: '基线',
  fields: [
    { key: 'code', label: '编码', type: 'text', pattern: { regex: '\\d{6}', message: '须为6位数字', level: 'hard' } },
  ],
};

function Harness() {
  const [value, setValue] = useState<Record<string, unknown>>({});
  return (
    <CrfForm
      form={form}
      definition={{ categories: [{ key: 'v', title: '访视', forms: [form] }], missingCodes: DEFAULT_MISSING_CODES }}
      value={value}
      onChange={setValue}
      today="2026-03-01"
    />
  );
}

describe('CrfForm when the pattern engine does not load', () => {
  it('should say so and report a pattern field’s value as not checked instead of skipping the check', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.type(await screen.findByLabelText('编码'), 'abc');
    expect(await screen.findByText(/格式校验组件加载失败/)).toHaveAttribute('role', 'alert');
    expect(
      await screen.findByText('「编码」的格式暂无法检查：格式校验组件未加载，请稍候或刷新页面重试'),
    ).toBeInTheDocument();
  });
});
