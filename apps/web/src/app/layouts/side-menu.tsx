import { useMemo, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import type { MenuItem } from '@registry/shared/contracts/auth';
import { MenuIcon } from '../../config/menu-icons';

type AntMenuItem = Required<MenuProps>['items'][number];

/** Only items of type '1' (group with children) or '2' (link) whose showFlag is true (seed §2). */
export function toMenuItems(items: readonly MenuItem[]): AntMenuItem[] {
  return items
    .filter((item) => item.showFlag && (item.type === '1' || item.type === '2'))
    .map((item): AntMenuItem => {
      if (item.type === '1') {
        return {
          key: `group:${item.id}`,
          icon: <MenuIcon name={item.icon} />,
          label: item.name,
          children: toMenuItems(item.children),
        };
      }
      return { key: item.href ?? `item:${item.id}`, icon: <MenuIcon name={item.icon} />, label: item.name };
    });
}

function parentKeysOf(items: readonly MenuItem[], pathname: string, parents: string[] = []): string[] {
  for (const item of items) {
    if (item.type === '2' && item.href === pathname) return parents;
    if (item.type === '1') {
      const found = parentKeysOf(item.children, pathname, [...parents, `group:${item.id}`]);
      if (found.length > 0) return found;
    }
  }
  return [];
}

export function SideMenu({ items, collapsed = false }: { items: readonly MenuItem[]; collapsed?: boolean }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const menuItems = useMemo(() => toMenuItems(items), [items]);
  const parents = useMemo(() => parentKeysOf(items, pathname), [items, pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>(parents);
  // The group of the current page opens when the page or the menu changes (adjusting state while rendering).
  const [openedFor, setOpenedFor] = useState(parents);
  if (openedFor !== parents) {
    setOpenedFor(parents);
    setOpenKeys((keys) => [...new Set([...keys, ...parents])]);
  }

  return (
    <Menu
      mode="inline"
      aria-label="导航菜单"
      items={menuItems}
      selectedKeys={[pathname]}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      style={{ borderInlineEnd: 0 }}
      onClick={({ key }) => {
        if (key.startsWith('/')) navigate(key);
      }}
    />
  );
}
