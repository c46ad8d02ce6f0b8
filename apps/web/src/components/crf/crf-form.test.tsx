import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import {
  DEFAULT_MISSING_CODES,
  type Definition,
  type FieldDefinition,
  type FormDefinition,
} from '@registry/shared/forms/definition';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderWithProviders } from '../../test/render';
import { chooseOption } from '../../test/select';
import { setToken } from '../../lib/token';
import { CrfForm, type CrfFormProps } from './crf-form';

function formOf(fields: FieldDefinition[]): FormDefinition {
  return { key: 'baseline', title: '基线', fields };
}

function definitionOf(form: FormDefinition): Definition {
  return { categories: [{ key: 'visit', title: '访视', forms: [form] }], missingCodes: DEFAULT_MISSING_CODES };
}

type HarnessProps = Omit<CrfFormProps, 'value' | 'onChange' | 'definition'> & {
  initial?: Record<string, unknown>;
  onEmit?: (next: Record<string, unknown>) => void;
};

/** A page holding the record, as the designer preview and the patient pages do. */
function Harness({ initial = {}, onEmit, form, ...rest }: HarnessProps) {
  const [value, setValue] = useState<Record<string, unknown>>(initial);
  return (
    <CrfForm
      form={form}
      definition={definitionOf(form)}
      value={value}
      onChange={(next) => {
        onEmit?.(next);
        setValue(next);
      }}
      today="2026-03-01"
      {...rest}
    />
  );
}

function renderForm(fields: FieldDefinition[], props: Omit<HarnessProps, 'form'> = {}) {
  const emitted: Record<string, unknown>[] = [];
  const last = () => emitted[emitted.length - 1];
  const utils = renderWithProviders(<Harness form={formOf(fields)} onEmit={(n) => emitted.push(n)} {...props} />);
  return { ...utils, emitted, last };
}

describe('CrfForm', () => {
  it('should emit a string for text, a number for integer and decimal, and labels every input when typed', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([
      { key: 'name', label: '姓名', type: 'text', maxLength: 20, phi: true },
      { key: 'note', label: '备注', type: 'textarea' },
      { key: 'age', label: '年龄', type: 'integer', unit: '岁' },
      { key: 'weight', label: '体重', type: 'decimal', precision: 1, unit: 'kg' },
    ]);
    await user.type(screen.getByLabelText('姓名'), '张三');
    await user.type(screen.getByLabelText('备注'), '无');
    await user.type(screen.getByLabelText('年龄'), '64');
    await user.type(screen.getByLabelText('体重'), '70.5');
    expect(last()).toEqual({ name: '张三', note: '无', age: 64, weight: 70.5 });
    expect(screen.getByText('隐私')).toBeInTheDocument();
    expect(screen.getByText('岁')).toBeInTheDocument();
  });

  it('should remove the key when a text input is emptied', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'name', label: '姓名', type: 'text' }], { initial: { name: '张' } });
    await user.clear(screen.getByLabelText('姓名'));
    expect(last()).toEqual({});
  });

  it('should emit option codes for radio, yes/no and checkbox when options are picked', async () => {
    const user = userEvent.setup();
    const options = [
      { code: 'M', label: '男' },
      { code: 'F', label: '女' },
    ];
    const { last } = renderForm([
      { key: 'sex', label: '性别', type: 'radio', options },
      { key: 'smoker', label: '吸烟', type: 'yesno' },
      {
        key: 'symptoms',
        label: '症状',
        type: 'checkbox',
        options: [
          { code: 'dyspnea', label: '呼吸困难' },
          { code: 'edema', label: '水肿' },
        ],
      },
    ]);
    await user.click(within(screen.getByRole('radiogroup', { name: '性别' })).getByLabelText('女'));
    await user.click(within(screen.getByRole('radiogroup', { name: '吸烟' })).getByLabelText('是'));
    await user.click(screen.getByLabelText('水肿'));
    await user.click(screen.getByLabelText('呼吸困难'));
    // Codes keep the order of the options.
    expect(last()).toEqual({ sex: 'F', smoker: '1', symptoms: ['dyspnea', 'edema'] });
    await user.click(screen.getByLabelText('水肿'));
    await user.click(screen.getByLabelText('呼吸困难'));
    expect(last()).toEqual({ sex: 'F', smoker: '1' });
  });

  it('should emit the option code when a dictionary option is picked', async () => {
    setToken('tok');
    server.use(
      http.post(apiUrl('/sys-field-dict-option/page'), async ({ request }) => {
        const body = (await request.json()) as { dictCode?: string; codes?: string[] };
        const records = [
          { code: 'A', label: 'A型' },
          { code: 'B', label: 'B型' },
        ]
          .filter((o) => body.dictCode === 'blood_type' && (!body.codes || body.codes.includes(o.code)))
          .map((o) => ({
            ...o,
            id: `o-${o.code}`,
            dictCode: 'blood_type',
            dictName: '血型',
            parentCode: null,
            sort: 0,
            enabled: true,
            builtIn: true,
          }));
        return ok({ records, total: records.length, current: 1, size: 50 });
      }),
    );
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'abo', label: '血型', type: 'dict', dictCode: 'blood_type' }]);
    await chooseOption(user, '血型', 'B B型');
    await waitFor(() => expect(last()).toEqual({ abo: 'B' }));
  });

  it('should show a disabled select and query nothing when a dictionary field has no list yet', () => {
    renderForm([{ key: 'abo', label: '血型', type: 'dict' }]);
    expect(screen.getByRole('combobox', { name: '血型' })).toBeDisabled();
  });

  it('should emit YYYY-MM-DD when a date is entered', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'visit', label: '就诊日期', type: 'date' }]);
    await user.type(screen.getByLabelText('就诊日期'), '2025-03-14{Enter}');
    await waitFor(() => expect(last()).toEqual({ visit: '2025-03-14' }));
  });

  it('should emit YYYY-MM-DDTHH:mm when a date-time is entered', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'onset', label: '发病时间', type: 'datetime' }]);
    await user.type(screen.getByLabelText('发病时间'), '2025-03-14 08:30{Enter}');
    await waitFor(() => expect(last()).toEqual({ onset: '2025-03-14T08:30' }));
  });

  it('should emit a year only when the partial date precision is set to year', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'diag', label: '确诊年份', type: 'partialDate' }]);
    await user.click(screen.getByRole('combobox', { name: '确诊年份精度' }));
    await user.click(await screen.findByTitle('年'));
    await user.type(screen.getByLabelText('确诊年份'), '2019{Enter}');
    await waitFor(() => expect(last()).toEqual({ diag: '2019' }));
  });

  it('should keep the known part when a partial date is made coarser', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'diag', label: '确诊年份', type: 'partialDate' }], {
      initial: { diag: '2019-05-20' },
    });
    await user.click(screen.getByRole('combobox', { name: '确诊年份精度' }));
    await user.click(await screen.findByTitle('年月'));
    expect(last()).toEqual({ diag: '2019-05' });
    expect(screen.getByLabelText('确诊年份')).toHaveValue('2019-05');
  });

  it('should hide a field when its show-if turns false and clear its data only after confirmation', async () => {
    const user = userEvent.setup();
    const { last, emitted } = renderForm(
      [
        { key: 'smoker', label: '吸烟', type: 'yesno' },
        { key: 'cigs', label: '每日吸烟量', type: 'integer', showIf: "[smoker] = '1'" },
      ],
      { initial: { smoker: '1', cigs: 10 } },
    );
    expect(screen.getByLabelText('每日吸烟量')).toHaveValue('10');
    const no = within(screen.getByRole('radiogroup', { name: '吸烟' })).getByLabelText('否');
    await user.click(no);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('以下字段将被隐藏并清空：每日吸烟量');
    await user.click(await within(dialog).findByRole('button', { name: /取\s*消/ }));
    // Cancel undoes the change.
    expect(emitted).toHaveLength(0);
    expect(screen.getByLabelText('每日吸烟量')).toHaveValue('10');
    expect(within(screen.getByRole('radiogroup', { name: '吸烟' })).getByLabelText('是')).toBeChecked();

    await user.click(no);
    const again = await screen.findByRole('dialog');
    await user.click(await within(again).findByRole('button', { name: /清\s*空/ }));
    await waitFor(() => expect(last()).toEqual({ smoker: '0' }));
    expect(screen.queryByLabelText('每日吸烟量')).not.toBeInTheDocument();
  });

  it('should not ask about a field that was already hidden with data when another field changes', async () => {
    const user = userEvent.setup();
    const { last } = renderForm(
      [
        { key: 'smoker', label: '吸烟', type: 'yesno' },
        { key: 'cigs', label: '每日吸烟量', type: 'integer', showIf: "[smoker] = '1'" },
        { key: 'note', label: '备注', type: 'text' },
      ],
      { initial: { smoker: '0', cigs: 10 } },
    );
    await user.type(screen.getByLabelText('备注'), '无');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(last()).toEqual({ smoker: '0', cigs: 10, note: '无' });
  });

  it('should hide an empty dependent field without asking when its condition turns false', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([
      { key: 'smoker', label: '吸烟', type: 'yesno' },
      { key: 'cigs', label: '每日吸烟量', type: 'integer', showIf: "[smoker] = '1'" },
    ]);
    expect(screen.queryByLabelText('每日吸烟量')).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('radiogroup', { name: '吸烟' })).getByLabelText('是'));
    expect(await screen.findByLabelText('每日吸烟量')).toBeInTheDocument();
    await user.click(within(screen.getByRole('radiogroup', { name: '吸烟' })).getByLabelText('否'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(last()).toEqual({ smoker: '0' });
    expect(screen.queryByLabelText('每日吸烟量')).not.toBeInTheDocument();
  });

  it('should update a calculated field live when its inputs change (BMI)', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([
      { key: 'height', label: '身高', type: 'decimal', unit: 'cm' },
      { key: 'weight', label: '体重', type: 'decimal', unit: 'kg' },
      {
        key: 'bmi',
        label: 'BMI',
        type: 'calc',
        unit: 'kg/m²',
        precision: 1,
        formula: '[weight] / ([height] / 100) ^ 2',
      },
    ]);
    expect(screen.getByLabelText('BMI')).toHaveTextContent('—');
    await user.type(screen.getByLabelText('身高'), '170');
    await user.type(screen.getByLabelText('体重'), '70');
    expect(screen.getByLabelText('BMI')).toHaveTextContent('24.2 kg/m²');
    expect(last()?.bmi).toBe(24.2);
    await user.clear(screen.getByLabelText('体重'));
    expect(screen.getByLabelText('BMI')).toHaveTextContent('—');
  });

  it('should show a hard issue as an error and a soft issue as a warning at the field when the value breaks them', async () => {
    const user = userEvent.setup();
    renderForm([
      {
        key: 'sbp',
        label: '收缩压',
        type: 'integer',
        min: 40,
        max: 300,
        rules: [{ expr: '[sbp] < 180', message: '收缩压偏高，请核实', level: 'soft' }],
      },
    ]);
    const input = screen.getByLabelText('收缩压');
    await user.type(input, '200');
    const soft = await screen.findByText('收缩压偏高，请核实');
    expect(soft).toHaveClass('crf-issue-soft');
    expect(document.querySelector('.crf-issue-hard')).toBeNull();
    expect(document.querySelector('.crf-field-has-warning')).not.toBeNull();

    await user.type(input, '0');
    await waitFor(() => expect(document.querySelector('.crf-issue-hard')).not.toBeNull());
    expect(document.querySelector('.crf-field-has-error')).not.toBeNull();
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('should show required issues only after a submit attempt and never in draft mode', async () => {
    const fields: FieldDefinition[] = [{ key: 'name', label: '姓名', type: 'text', required: true }];
    const { rerender } = renderWithProviders(<Harness form={formOf(fields)} />);
    expect(screen.getByLabelText('姓名')).toHaveAttribute('aria-required', 'true');
    expect(document.querySelector('.crf-issue')).toBeNull();
    rerender(<Harness form={formOf(fields)} showAllIssues />);
    expect(document.querySelector('.crf-issue-hard')).not.toBeNull();
    rerender(<Harness form={formOf(fields)} showAllIssues mode="draft" />);
    expect(document.querySelector('.crf-issue')).toBeNull();
  });

  it('should show the server issues at their fields until the field is edited', async () => {
    const user = userEvent.setup();
    const issues: RecordIssue[] = [{ path: 'name', fieldKey: 'name', message: '与身份证姓名不一致', level: 'soft' }];
    renderForm([{ key: 'name', label: '姓名', type: 'text' }], { issues, initial: { name: '张三' } });
    expect(screen.getByText('与身份证姓名不一致')).toBeInTheDocument();
    await user.type(screen.getByLabelText('姓名'), '丰');
    expect(screen.queryByText('与身份证姓名不一致')).not.toBeInTheDocument();
  });

  it('should flag a number outside the normal range as high or low', async () => {
    const user = userEvent.setup();
    renderForm([{ key: 'k', label: '血钾', type: 'decimal', normalLow: 3.5, normalHigh: 5.5, unit: 'mmol/L' }]);
    await user.type(screen.getByLabelText('血钾'), '6.1');
    expect(screen.getByText('偏高')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('血钾'));
    await user.type(screen.getByLabelText('血钾'), '3.1');
    expect(screen.getByText('偏低')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('血钾'));
    await user.type(screen.getByLabelText('血钾'), '4.2');
    expect(screen.queryByText(/偏高|偏低/)).not.toBeInTheDocument();
  });

  it('should add and remove group rows within their bounds and emit row objects', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([
      {
        key: 'meds',
        label: '用药',
        type: 'group',
        minRows: 1,
        maxRows: 2,
        fields: [
          { key: 'drug', label: '药名', type: 'text' },
          { key: 'dose', label: '剂量', type: 'decimal', unit: 'mg' },
        ],
      },
    ]);
    const add = screen.getByRole('button', { name: /添加用药/ });
    await user.click(add);
    await user.type(screen.getByLabelText('药名（第1行）'), '阿司匹林');
    await user.type(screen.getByLabelText('剂量（第1行）'), '100');
    expect(last()).toEqual({ meds: [{ drug: '阿司匹林', dose: 100 }] });
    expect(screen.getByRole('button', { name: '删除第1行' })).toBeDisabled();
    await user.click(add);
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText('药名（第2行）'), '呋塞米');
    await user.click(screen.getByRole('button', { name: '删除第1行' }));
    expect(last()).toEqual({ meds: [{ drug: '呋塞米' }] });
    expect(screen.getByLabelText('药名（第1行）')).toHaveValue('呋塞米');
    expect(screen.queryByLabelText('药名（第2行）')).not.toBeInTheDocument();
  });

  it('should mark a value missing with one of the field codes and bring the input back when unmarked', async () => {
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'income', label: '家庭收入', type: 'integer', missingCodes: ['UNK', 'ASKU'] }]);
    await user.click(screen.getByRole('button', { name: '标记家庭收入缺失' }));
    await user.click(await screen.findByText('不详（UNK）'));
    expect(last()).toEqual({ income: 'UNK' });
    expect(screen.getByText('缺失：不详（UNK）')).toBeInTheDocument();
    expect(screen.queryByRole('spinbutton', { name: '家庭收入' })).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('取消家庭收入缺失标记'));
    expect(last()).toEqual({});
    expect(screen.getByLabelText('家庭收入')).toBeInTheDocument();
  });

  it('should upload a file and keep its id and name when a file is chosen', async () => {
    let purpose: string | null = null;
    server.use(
      http.post(apiUrl('/oss/file/upload-file'), ({ request }) => {
        purpose = new URL(request.url).searchParams.get('purpose');
        return ok({ id: 'f-9', name: 'ecg.pdf', size: 4, contentType: 'application/pdf', previewUrl: '/x' });
      }),
    );
    const user = userEvent.setup();
    const { last } = renderForm([{ key: 'ecg', label: '心电图', type: 'file', accept: 'any', maxFiles: 2 }]);
    // The upload control loads with the first file field (field-control.tsx).
    const input = await waitFor(() => {
      const found = document.querySelector<HTMLInputElement>('input[type="file"]');
      if (!found) throw new Error('no file input');
      return found;
    });
    await user.upload(input, new File(['%PDF'], 'ecg.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(last()).toEqual({ ecg: [{ fileId: 'f-9', name: 'ecg.pdf' }] }));
    expect(purpose).toBe('attachment');
    expect(screen.getByText('ecg.pdf')).toBeInTheDocument();
  });

  it('should not show inputs as editable when read-only', () => {
    renderForm([{ key: 'name', label: '姓名', type: 'text' }], { readOnly: true, initial: { name: '张三' } });
    expect(screen.getByLabelText('姓名')).toBeDisabled();
  });

  it('should render section headings and description text without inputs', () => {
    renderForm([
      { key: 'sec', label: '生命体征', type: 'section' },
      { key: 'desc', label: '请在静息 5 分钟后测量', type: 'description' },
    ]);
    expect(screen.getByRole('heading', { name: '生命体征' })).toBeInTheDocument();
    expect(screen.getByText('请在静息 5 分钟后测量')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});

describe('CrfForm logic and long forms', () => {
  it('should show a field whose show-if reads another form of the patient when the external value matches', () => {
    const fields: FieldDefinition[] = [{ key: 'pregnant', label: '是否妊娠', type: 'yesno', showIf: "[sex] = 'F'" }];
    const { rerender } = renderWithProviders(<Harness form={formOf(fields)} external={{ sex: 'M' }} />);
    expect(screen.queryByRole('radiogroup', { name: '是否妊娠' })).not.toBeInTheDocument();
    rerender(<Harness form={formOf(fields)} external={{ sex: 'F' }} />);
    expect(screen.getByRole('radiogroup', { name: '是否妊娠' })).toBeInTheDocument();
  });

  it('should hide a group cell by its row show-if and ask before clearing the cell data', async () => {
    const user = userEvent.setup();
    const { last } = renderForm(
      [
        {
          key: 'meds',
          label: '用药',
          type: 'group',
          fields: [
            { key: 'drug', label: '药名', type: 'text' },
            { key: 'other', label: '其他药名', type: 'text', showIf: "[drug] = '其他'" },
          ],
        },
      ],
      { initial: { meds: [{ drug: '其他', other: '中药' }] } },
    );
    expect(screen.getByLabelText('其他药名（第1行）')).toHaveValue('中药');
    await user.type(screen.getByLabelText('药名（第1行）'), '1');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('以下字段将被隐藏并清空：用药 第1行「其他药名」');
    await user.click(await within(dialog).findByRole('button', { name: /清\s*空/ }));
    await waitFor(() => expect(last()).toEqual({ meds: [{ drug: '其他1' }] }));
    expect(screen.queryByLabelText('其他药名（第1行）')).not.toBeInTheDocument();
  });

  it('should render every field of a long form, the first screen at once and the rest soon after', async () => {
    const fields: FieldDefinition[] = Array.from({ length: 120 }, (_v, i) => ({
      key: `f_${i}`,
      label: `字段${i}`,
      type: 'text',
    }));
    const onFullyRendered = vi.fn();
    renderForm(fields, { onFullyRendered });
    expect(screen.getByLabelText('字段0')).toBeInTheDocument();
    expect(screen.queryByLabelText('字段119')).not.toBeInTheDocument();
    expect(await screen.findByLabelText('字段119', {}, { timeout: 20_000 })).toBeInTheDocument();
    await waitFor(() => expect(onFullyRendered).toHaveBeenCalledTimes(1));
  });

  it('should show a stored image as a thumbnail from the preview link with the access token', () => {
    setToken('tok-1');
    renderForm([{ key: 'photo', label: '皮损照片', type: 'file', accept: 'image' }], {
      initial: { photo: [{ fileId: 'f-1', name: 'skin.png' }] },
    });
    const img = document.querySelector<HTMLImageElement>('.ant-upload-list img');
    expect(img?.getAttribute('src')).toBe('/api/cmdb-template/oss/file/preview/f-1?access_token=tok-1');
  });
});

describe('CrfForm rich text', () => {
  it('should call onChange at most every 300 ms while typing and emit sanitised HTML', async () => {
    try {
      const onEmit = vi.fn();
      renderWithProviders(
        <Harness form={formOf([{ key: 'hpi', label: '现病史', type: 'richtext' }])} onEmit={onEmit} />,
      );
      // The editor loads on demand (field-control.tsx); the throttle's clock is faked once it is in.
      const editor = await screen.findByRole('textbox', { name: '现病史' });
      vi.useFakeTimers();
      editor.innerHTML = '<b>胸闷</b>';
      fireEvent.input(editor);
      editor.innerHTML = '<b>胸闷</b>三天<img src=x onerror="alert(1)"><script>alert(2)</script>';
      fireEvent.input(editor);
      act(() => vi.advanceTimersByTime(299));
      expect(onEmit).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(1));
      expect(onEmit).toHaveBeenCalledTimes(1);
      expect(onEmit).toHaveBeenLastCalledWith({ hpi: '<b>胸闷</b>三天' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('should emit at once when the editor loses focus before the throttle ends', async () => {
    try {
      const onEmit = vi.fn();
      renderWithProviders(
        <Harness form={formOf([{ key: 'hpi', label: '现病史', type: 'richtext' }])} onEmit={onEmit} />,
      );
      // The editor loads on demand (field-control.tsx); the throttle's clock is faked once it is in.
      const editor = await screen.findByRole('textbox', { name: '现病史' });
      vi.useFakeTimers();
      editor.innerHTML = '<p>发热</p>';
      fireEvent.input(editor);
      fireEvent.blur(editor);
      expect(onEmit).toHaveBeenCalledTimes(1);
      expect(onEmit).toHaveBeenLastCalledWith({ hpi: '<p>发热</p>' });
      act(() => vi.advanceTimersByTime(300));
      expect(onEmit).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('should render only whitelisted tags of a stored value', async () => {
    renderWithProviders(
      <Harness
        form={formOf([{ key: 'hpi', label: '现病史', type: 'richtext' }])}
        initial={{ hpi: '<p onclick="x()">咳嗽<a href="javascript:alert(1)">链接</a></p><ul><li>一</li></ul>' }}
      />,
    );
    const editor = await screen.findByRole('textbox', { name: '现病史' });
    expect(editor.innerHTML).toBe('<p>咳嗽链接</p><ul><li>一</li></ul>');
  });
});

describe('CrfForm marks and locked fields', () => {
  it('should show a field’s mark beside its label and a group cell’s mark beside that cell when marks are given', () => {
    const markers = new Map([
      ['weight', <span key="w">体重有2个版本</span>],
      ['meds.1.dose', <span key="d">剂量已核查</span>],
    ]);
    renderForm(
      [
        { key: 'weight', label: '体重', type: 'decimal', unit: 'kg' },
        { key: 'height', label: '身高', type: 'integer' },
        {
          key: 'meds',
          label: '用药',
          type: 'group',
          fields: [
            { key: 'drug', label: '药品', type: 'text' },
            { key: 'dose', label: '剂量', type: 'text' },
          ],
        },
      ],
      {
        fieldMarkers: markers,
        initial: {
          weight: 70,
          meds: [
            { drug: '呋塞米', dose: '20mg' },
            { drug: '螺内酯', dose: '20mg' },
          ],
        },
      },
    );
    const weightLabel = document.querySelector('label[for$="-weight"]');
    expect(weightLabel).toHaveTextContent('体重有2个版本');
    expect(document.querySelector('label[for$="-height"] .crf-field-marker')).toBeNull();
    const cell = screen.getByLabelText('剂量（第2行）').closest('td');
    expect(cell).toHaveTextContent('剂量已核查');
    expect(screen.getByLabelText('剂量（第1行）').closest('td')).not.toHaveTextContent('剂量已核查');
  });

  it('should disable a locked field with its hint and not show its engine issues when the form is checked', async () => {
    const user = userEvent.setup();
    renderForm(
      [
        { key: 'name', label: '姓名', type: 'text', required: true, phi: true },
        { key: 'note', label: '备注', type: 'text', required: true },
      ],
      { lockedFields: new Map([['name', '隐私信息已隐藏，不能修改']]), showAllIssues: true },
    );
    expect(screen.getByLabelText('姓名')).toBeDisabled();
    expect(screen.getByText('隐私信息已隐藏，不能修改')).toBeInTheDocument();
    expect(screen.queryByText('请填写「姓名」')).not.toBeInTheDocument();
    expect(screen.getByText('请填写「备注」')).toBeInTheDocument();
    await user.type(screen.getByLabelText('备注'), '无');
    expect(screen.getByLabelText('姓名')).toHaveValue('');
  });
});
