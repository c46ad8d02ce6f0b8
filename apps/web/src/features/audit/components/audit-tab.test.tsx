import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Changes } from './audit-tab';
import { diffValues } from './audit-diff';

describe('操作日志 changes', () => {
  it('should show a form record’s field keys as their titles and a form key as the form’s title', () => {
    const before = { formKey: 'medications', values: { 'meds.0.dose': '25 mg' } };
    const after = { formKey: 'medications', values: { 'meds.0.dose': '50 mg', lvef: 40 } };
    const labels = { meds: '用药', dose: '剂量', lvef: '左室射血分数（LVEF）' };
    render(<Changes changes={diffValues(before, after)} side="after" names={{}} fieldLabels={labels} />);
    expect(screen.getByText('数据.用药.0.剂量：')).toBeInTheDocument();
    expect(screen.getByText('数据.左室射血分数（LVEF）：')).toBeInTheDocument();
    expect(screen.queryByText(/lvef|dose/)).not.toBeInTheDocument();

    render(
      <Changes
        changes={diffValues(null, { formKey: 'medications' })}
        side="after"
        names={{ medications: '用药记录' }}
      />,
    );
    expect(screen.getByText('表单：')).toBeInTheDocument();
    expect(screen.getByText('用药记录')).toBeInTheDocument();
  });
});
