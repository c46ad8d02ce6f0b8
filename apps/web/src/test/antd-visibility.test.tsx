import { render, screen } from '@testing-library/react';
import { ConfigProvider, Form, Input, Tabs } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEME } from '../config/theme';

// A file of its own: no test before it has had antd (runtime mode) write its own style sheets into this document.
describe('antd.css show/hide rules in jsdom (test setup)', () => {
  it('should hide what antd hides with antd.css when antd generates no styles (zero-runtime, as the app runs)', () => {
    render(
      <ConfigProvider theme={THEME}>
        <Form>
          <Form.Item label="隐藏" name="secret" hidden>
            <Input />
          </Form.Item>
        </Form>
        <Tabs
          items={[
            { key: 'a', label: '基本', children: <Input aria-label="当前页" /> },
            { key: 'b', label: '其他', children: <Input aria-label="另一页" />, forceRender: true },
          ]}
        />
      </ConfigProvider>,
    );
    // antd wrote no style sheet of its components: what hides them is the setup's share of antd.css
    expect(
      [...document.querySelectorAll('style:not([data-antd-visibility])')].some((s) =>
        s.innerHTML.includes('tabpane-hidden'),
      ),
    ).toBe(false);
    expect(screen.getByLabelText('隐藏', { selector: 'input' })).not.toBeVisible();
    expect(screen.getByLabelText('另一页')).not.toBeVisible();
    expect(screen.getByLabelText('当前页')).toBeVisible();
  });
});
