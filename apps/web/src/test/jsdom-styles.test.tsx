import { render, screen } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it } from 'vitest';
import { visibilityRules } from './jsdom-styles';

describe('jsdom style sheets cut down to visibility (test setup)', () => {
  it('should keep only the display, visibility, opacity and pointer-events declarations, in order', () => {
    const css =
      '.a{color:red;display:none;margin:0}' +
      '.b{padding:1px}' +
      '.c::before,.d::after{display:block}' +
      ':where(.x).e,.f::after{opacity:0 !important;pointer-events:none}' +
      '@keyframes spin{to{transform:rotate(1turn)}}' +
      '@media screen{.g{visibility:hidden;font-size:2px}}';
    expect(visibilityRules(css)).toBe(
      '.a{display:none;}' +
        ':where(.x).e, .f::after{opacity:0 !important;pointer-events:none;}' +
        '@media screen{.g{visibility:hidden;}}',
    );
  });

  it('should leave an element that antd hides with its style sheet hidden, and give antd back its own text', () => {
    render(
      <Form>
        <Form.Item label="可见" name="shown">
          <Input />
        </Form.Item>
        <Form.Item label="隐藏" name="secret" hidden>
          <Input />
        </Form.Item>
      </Form>,
    );
    const hidden = screen.getByLabelText('隐藏', { selector: 'input' });
    expect(hidden.closest('.ant-form-item')).toHaveClass('ant-form-item-hidden');
    expect(hidden).not.toBeVisible();
    expect(screen.getByRole('textbox', { name: '可见' })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: '隐藏' })).toBeNull();
    const sheets = [...document.querySelectorAll('style')];
    expect(sheets.some((s) => s.innerHTML.includes('font-family'))).toBe(true);
  });
});
