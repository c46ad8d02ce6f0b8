import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { buildMenuItem } from '../../test/factories';
import { SideMenu, toMenuItems } from './side-menu';

describe('side menu', () => {
  it('should keep only shown items of type 1 or 2 when the menu is converted', () => {
    const items = toMenuItems([
      buildMenuItem({ id: 'a', name: '首页', href: '/home' }),
      buildMenuItem({ id: 'b', name: '隐藏项', href: '/hidden', showFlag: false }),
      buildMenuItem({
        id: 'c',
        type: '1',
        name: '患者管理',
        href: null,
        children: [
          buildMenuItem({ id: 'c1', name: '患者列表', href: '/patient/list' }),
          buildMenuItem({ id: 'c2', name: '按钮权限', href: null, showFlag: false }),
        ],
      }),
    ]);
    expect(items.map((item) => item && 'label' in item && item.label)).toEqual(['首页', '患者管理']);
    const group = items[1];
    expect(group && 'children' in group ? group.children?.length : 0).toBe(1);
  });

  it('should show the menu names in the navigation menu when rendered', async () => {
    renderWithProviders(
      <SideMenu
        items={[
          buildMenuItem({ id: 'a', name: '首页', href: '/home', icon: 'HomeOutlined' }),
          buildMenuItem({ id: 'b', name: '数据检索', href: '/retrieval', icon: 'NoSuchIcon' }),
        ]}
      />,
      { path: '/home' },
    );
    expect(await screen.findByRole('menuitem', { name: /首页/ })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /数据检索/ })).toBeInTheDocument();
  });
});
