import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Permission } from './permission';
import { useMenuStore } from './stores/menu-store';

describe('Permission', () => {
  it('should render its children when the user holds one of the codes', () => {
    useMenuStore.setState({ permissions: ['patient.list', 'patient.add'] });
    render(
      <Permission codes={['patient.delete', 'patient.add']}>
        <button type="button">新增患者</button>
      </Permission>,
    );
    expect(screen.getByRole('button', { name: '新增患者' })).toBeInTheDocument();
  });

  it('should remove its children when the user holds none of the codes', () => {
    useMenuStore.setState({ permissions: ['patient.list'] });
    render(
      <Permission codes={['patient.delete']}>
        <button type="button">删除患者</button>
      </Permission>,
    );
    expect(screen.queryByRole('button', { name: '删除患者' })).not.toBeInTheDocument();
  });

  it('should remove its children when the list is empty', () => {
    useMenuStore.setState({ permissions: ['patient.list'] });
    render(
      <Permission codes={[]}>
        <span>内容</span>
      </Permission>,
    );
    expect(screen.queryByText('内容')).not.toBeInTheDocument();
  });

  it('should throw when used without a list of codes', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const props = { codes: undefined } as unknown as { codes: string[] };
    expect(() =>
      render(
        <Permission {...props}>
          <span>内容</span>
        </Permission>,
      ),
    ).toThrow(/codes/);
    const notArray = { codes: 'patient.list' } as unknown as { codes: string[] };
    expect(() =>
      render(
        <Permission {...notArray}>
          <span>内容</span>
        </Permission>,
      ),
    ).toThrow(/codes/);
    spy.mockRestore();
  });
});
