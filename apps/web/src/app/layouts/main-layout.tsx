import { useEffect } from 'react';
import { Button, Layout } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Navigate, Outlet } from 'react-router';
import { LAYOUT, MENU_GROUPS } from '@registry/shared/constants';
import { useMenu } from '../../features/menu/api/get-menu';
import { useAppStore } from '../../lib/stores/app-store';
import { useMenuStore } from '../../lib/stores/menu-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { AppHeader } from './app-header';
import { Brand } from './brand';
import { SideMenu } from './side-menu';
import './layout.css';

/** Main layout: collapsible 240 px side menu (group `project`, state kept in `isCollapse`) and the header. */
export function MainLayout() {
  const menu = useMenu(MENU_GROUPS.project);
  const items = useMenuStore((s) => s.menu);
  const setProjectMenu = useMenuStore((s) => s.setProjectMenu);
  const collapsed = useAppStore((s) => s.isCollapse);
  const setCollapse = useAppStore((s) => s.setCollapse);
  const projectId = useProjectStore((s) => s.projectId);

  useEffect(() => {
    if (menu.data) setProjectMenu(menu.data.menus, menu.data.permissions);
  }, [menu.data, setProjectMenu]);

  // The project pages need a chosen project.
  if (!projectId) return <Navigate to="/person/project" replace />;

  const toggle = (
    <Button
      type="text"
      aria-label={collapsed ? '展开菜单' : '收起菜单'}
      icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
      onClick={() => setCollapse(!collapsed)}
    />
  );

  return (
    <Layout className="app-layout">
      <Layout.Sider
        width={LAYOUT.siderWidth}
        collapsible
        collapsed={collapsed}
        trigger={null}
        theme="light"
        className="app-sider"
      >
        <Brand collapsed={collapsed} />
        <SideMenu items={items} collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <AppHeader showProject leading={toggle} />
        <Layout.Content className="app-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
