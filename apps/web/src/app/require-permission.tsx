import type { ReactNode } from 'react';
import { Button, Result, Spin } from 'antd';
import { useNavigate } from 'react-router';
import { MENU_GROUPS } from '@registry/shared/constants';
import { useMenu } from '../features/menu/api/get-menu';
import { hasAnyPermission } from '../lib/permission';
import { useMenuStore } from '../lib/stores/menu-store';

export const FORBIDDEN_TITLE = '无权限访问该页面';

/** The 403 state of a page the user may not open. */
export function ForbiddenResult() {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={FORBIDDEN_TITLE}
      subTitle="您在当前项目中的角色没有此页面的权限，如需访问请联系项目负责人。"
      extra={
        <Button type="primary" onClick={() => navigate('/person/project')}>
          返回项目列表
        </Button>
      }
    />
  );
}

/**
 * Renders a page only when the user holds one of `codes`, judged on the personal menu's answer (which carries the
 * permissions of the current project) and the stored permissions; a 403 result otherwise.
 */
export function RequirePermission({ codes, children }: { codes: readonly string[]; children: ReactNode }) {
  const menu = useMenu(MENU_GROUPS.person);
  const stored = useMenuStore((s) => s.permissions);
  if (menu.isPending) {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin tip="加载中…" size="large">
          <div style={{ minHeight: 80 }} />
        </Spin>
      </div>
    );
  }
  const held = menu.data ? [...stored, ...menu.data.permissions] : stored;
  return hasAnyPermission(held, codes) ? <>{children}</> : <ForbiddenResult />;
}
