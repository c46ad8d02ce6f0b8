import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_MISSING_CODES, type FieldDefinition, type FormDefinition } from '@registry/shared/forms/definition';
import { patternEngineReady } from '@registry/shared/forms/pattern';
import { renderWithProviders } from '../../test/render';
import { CrfForm } from './crf-form';

// One file on its own: the engine, once loaded, stays registered for the rest of the file (the tests run in order).

function Harness({ fields }: { fields: FieldDefinition[] }) {
  const form: FormDefinition = { key: 'baseline', title: '基线', fields };
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

describe('CrfForm format patterns (RE2 loaded on demand)', () => {
  it('should not load the pattern engine for a form without format patterns', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness fields={[{ key: 'name', label: '姓名', type: 'text' }]} />);
    await user.type(screen.getByLabelText('姓名'), 'a\u00a0b');
    expect(screen.getByLabelText('姓名')).toHaveValue('a\u00a0b');
    expect(patternEngineReady()).toBe(false);
  });

  it('should load RE2 for a form with a format pattern and check the value with it', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <Harness
        fields={[
          {
            key: 'code',
            label: '编码',
            type: 'text',
            pattern: { regex: 'a\\sb', message: '编码格式不对', level: 'hard' },
          },
        ]}
      />,
    );
    // Shown, not yet worked in: the engine waits (a form only read never loads it).
    await screen.findByLabelText('编码');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(patternEngineReady()).toBe(false);
    await user.click(screen.getByLabelText('编码'));
    await waitFor(() => expect(patternEngineReady()).toBe(true));
    // RE2's \s is ASCII white space only (a JavaScript RegExp would accept the no-break space).
    await user.type(screen.getByLabelText('编码'), 'a\u00a0b');
    expect(await screen.findByText('编码格式不对')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('编码'));
    await user.type(screen.getByLabelText('编码'), 'a b');
    await waitFor(() => expect(screen.queryByText('编码格式不对')).not.toBeInTheDocument());
  });
});
