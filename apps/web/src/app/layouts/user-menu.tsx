import { lazy, Suspense, useState } from 'react';
import { Dropdown, Space, type MenuProps } from 'antd';
// antd's Avatar alone: its index adds Avatar.Group and with it the Popover, which no page needs for the header
// (quality P7).
// eslint-disable-next-line local/no-deep-antd-import -- see above
import Avatar from 'antd/es/avatar/Avatar';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { LAYOUT, MESSAGES, SYS_TENANT_CODE } from '@registry/shared/constants';
import { useUserInfo } from '../../api/user-info';
import { logout } from '../../features/account/api/logout';
import { changeTenant } from '../../features/account/api/change-tenant';
import { clearToken, getToken, withAccessToken } from '../../lib/token';
import { toast } from '../../lib/toast';
import { useProjectStore } from '../../lib/stores/project-store';
import { usePasswordSetup } from '../../lib/stores/password-setup-store';
import { MenuIcon } from '../../config/menu-icons';

// The dialogs load when first opened (the avatar upload and the password rules stay out of every page's bundle).
const PasswordDialog = lazy(() =>
  import('../../features/account/components/password-dialog').then((m) => ({ default: m.PasswordDialog })),
);
const AvatarDialog = lazy(() =>
  import('../../features/account/components/avatar-dialog').then((m) => ({ default: m.AvatarDialog })),
);
const TenantDialog = lazy(() => import('./sys-dialogs').then((m) => ({ default: m.TenantDialog })));
const FormProjectDialog = lazy(() => import('./sys-dialogs').then((m) => ({ default: m.FormProjectDialog })));

/** An icon of the dropdown, loaded when the dropdown first opens (its menu renders then), not with every page. */
/** The user menu's icons: SVG data loaded when the menu first opens, as the side menu's (config/menu-icons). */
const ICONS = {
  tenant: <MenuIcon name="UserSwitchOutlined" />,
  form: <MenuIcon name="FormOutlined" />,
  home: <MenuIcon name="HomeOutlined" />,
  project: <MenuIcon name="SwapOutlined" />,
  password: <MenuIcon name="KeyOutlined" />,
  avatar: <MenuIcon name="PictureOutlined" />,
  logout: <MenuIcon name="LogoutOutlined" />,
};

export const USER_MENU_LABELS = {
  switchTenant: '切换租户',
  configureForm: '配置表单',
  backToSys: '返回系统租户',
  switchProject: '切换项目',
  avatar: '头像设置',
  logout: '退出登录',
} as const;

type DialogName = 'password' | 'avatar' | 'tenant' | 'form' | null;

/** `/manage/database?projectId=&projectName=` in a new window (seed §2, 配置表单). */
function openFormConfig(project: { id: string; name: string }) {
  const query = new URLSearchParams({ projectId: project.id, projectName: project.name });
  window.open(`/manage/database?${query.toString()}`);
}

/** The header's avatar dropdown with the actions of seed §2. */
export function UserMenu() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const projectId = useProjectStore((s) => s.projectId);
  const projectName = useProjectStore((s) => s.projectName);
  const clearProject = useProjectStore((s) => s.clearProject);
  const [dialog, setDialog] = useState<DialogName>(null);

  const info = user.data;
  // The system tenant's actions belong to the user's home tenant: they stay after 切换租户 (which changes tenantCode).
  const isSys = info?.homeTenantCode === SYS_TENANT_CODE;
  const switched = isSys && info?.tenantCode !== SYS_TENANT_CODE;
  const isPersonal = info?.tenant.tenantType === 'PERSONAL';
  // The server refuses every other call while the initial password is kept (428): the dialog opens then too.
  const setupRequired = usePasswordSetup((s) => s.required);
  const initPwd = (info?.initPwd ?? false) || setupRequired;

  /**
   * Signs out without a single call the server refuses: the token goes first (a call still made without one is not
   * sent, see lib/request.ts), the cache is emptied only once the page (the bell's polling, the user info) has
   * unmounted — emptied while mounted, every query would refetch at once — and the server revokes the session last.
   */
  const doLogout = async () => {
    const token = getToken();
    clearToken();
    await queryClient.cancelQueries();
    await navigate('/login', { replace: true });
    queryClient.clear();
    if (token) await logout(token).catch(() => undefined); // logging out locally must not depend on the server
  };

  /**
   * Switches the acting tenant. The server clears the session's project, so the stored one (of the previous tenant) is
   * dropped too and the project list of the new tenant opens.
   */
  const switchTenant = async (tenantCode: string) => {
    await changeTenant(tenantCode);
    toast.success(MESSAGES.operationSucceeded);
    clearProject();
    await queryClient.invalidateQueries();
    navigate('/person/project');
  };

  const items: MenuProps['items'] = [
    ...(isSys
      ? [
          { key: 'tenant', icon: ICONS.tenant, label: USER_MENU_LABELS.switchTenant },
          { key: 'form', icon: ICONS.form, label: USER_MENU_LABELS.configureForm },
          ...(switched ? [{ key: 'tenant-home', icon: ICONS.home, label: USER_MENU_LABELS.backToSys }] : []),
        ]
      : []),
    ...(pathname !== '/person/project'
      ? [{ key: 'project', icon: ICONS.project, label: USER_MENU_LABELS.switchProject }]
      : []),
    {
      key: 'password',
      icon: ICONS.password,
      label: initPwd ? MESSAGES.setPasswordTitle : MESSAGES.changePasswordTitle,
    },
    ...(isPersonal ? [{ key: 'avatar', icon: ICONS.avatar, label: USER_MENU_LABELS.avatar }] : []),
    { type: 'divider' as const },
    { key: 'logout', icon: ICONS.logout, label: USER_MENU_LABELS.logout, danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    switch (key) {
      case 'tenant':
        setDialog('tenant');
        break;
      case 'form':
        // With a current project its forms open at once; otherwise the administrator picks one of the tenant's.
        if (projectId) openFormConfig({ id: projectId, name: projectName ?? '' });
        else setDialog('form');
        break;
      case 'tenant-home':
        void switchTenant(SYS_TENANT_CODE).catch(() => {
          // The request layer showed the message.
        });
        break;
      case 'project':
        navigate('/person/project');
        break;
      case 'password':
        setDialog('password');
        break;
      case 'avatar':
        setDialog('avatar');
        break;
      case 'logout':
        void doLogout();
        break;
    }
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
        <button type="button" className="user-trigger" aria-label="用户菜单">
          <Space size={8}>
            <Avatar
              size={LAYOUT.avatarSize}
              shape="square"
              src={info?.avatar ? withAccessToken(info.avatar) : undefined}
              icon={<UserOutlined />}
              alt={info?.name ?? '头像'}
            />
            <span className="user-name">{info?.name ?? ''}</span>
            <DownOutlined style={{ fontSize: 10, color: '#8c8c8c' }} />
          </Space>
        </button>
      </Dropdown>

      <Suspense fallback={null}>
        {(dialog === 'password' || initPwd) && (
          <PasswordDialog
            open
            initPwd={initPwd}
            forced={initPwd}
            username={info?.username}
            onClose={() => setDialog(null)}
            onLogout={() => void doLogout()}
          />
        )}
        {info && dialog === 'avatar' && <AvatarDialog open userId={info.id} onClose={() => setDialog(null)} />}
      </Suspense>

      <Suspense fallback={null}>
        {dialog === 'tenant' && <TenantDialog onSubmit={switchTenant} onClose={() => setDialog(null)} />}
        {dialog === 'form' && (
          <FormProjectDialog
            onOpen={(project) => {
              openFormConfig(project);
              setDialog(null);
            }}
            onClose={() => setDialog(null)}
          />
        )}
      </Suspense>
    </>
  );
}
