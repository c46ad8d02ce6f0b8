import { useEffect } from 'react';
import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { LAYOUT, MENU_GROUPS } from '@registry/shared/constants';
import { useMenu } from '../../features/menu/api/get-menu';
import { useMenuStore } from '../../lib/stores/menu-store';
import { AppHeader } from './app-header';
import { Brand } from './brand';
import { SideMenu } from './side-menu';
import './layout.css';

/** Personal-edition layout: its own side menu (group `index`, fetched when it appears), wraps /person/* and /manage/*. */
export function PersonLayout() {
  const menu = useMenu(MENU_GROUPS.person);
  const menuPerson = useMenuStore((s) => s.menuPerson);
  const setPersonMenu = useMenuStore((s) => s.setPersonMenu);

  useEffect(() => {
    if (menu.data) setPersonMenu(menu.data.menus, menu.data.permissions);
  }, [menu.data, setPersonMenu]);

  return (
    <Layout className="app-layout">
      <Layout.Sider width={LAYOUT.siderWidth} theme="light" className="app-sider">
        <Brand />
        <SideMenu items={menuPerson} />
      </Layout.Sider>
      <Layout>
        <AppHeader showProject={false} />
        <Layout.Content className="app-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
