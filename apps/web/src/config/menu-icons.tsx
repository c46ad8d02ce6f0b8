import { useEffect, useState } from 'react';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
// The renderer every antd icon module wraps (already on every page): the menu loads only each icon's SVG data.
import AntdIcon from '@ant-design/icons/es/components/AntdIconLight';

type IconModule = { default: IconDefinition };

/**
 * The fixed map from the menus' icon names (antd icon names; the side menu's and the user menu's) to their SVG data (@ant-design/icons-svg, the data antd's
 * icon components render); unknown names show no icon. A child item's icon is its own small chunk, loaded when its
 * parent opens (a top-level item's comes with its menu's chunk, below): a static map would put all of them on every
 * first route, and a whole icon component per chunk would repeat its wrapper in each.
 */
const SEPARATE_ICONS: Readonly<Record<string, () => Promise<IconModule>>> = {
  AuditOutlined: () => import('@ant-design/icons-svg/es/asn/AuditOutlined'),
  BranchesOutlined: () => import('@ant-design/icons-svg/es/asn/BranchesOutlined'),
  CalendarOutlined: () => import('@ant-design/icons-svg/es/asn/CalendarOutlined'),
  ClusterOutlined: () => import('@ant-design/icons-svg/es/asn/ClusterOutlined'),
  ContactsOutlined: () => import('@ant-design/icons-svg/es/asn/ContactsOutlined'),
  ControlOutlined: () => import('@ant-design/icons-svg/es/asn/ControlOutlined'),
  CrownOutlined: () => import('@ant-design/icons-svg/es/asn/CrownOutlined'),
  DashboardOutlined: () => import('@ant-design/icons-svg/es/asn/DashboardOutlined'),
  DatabaseOutlined: () => import('@ant-design/icons-svg/es/asn/DatabaseOutlined'),
  ExportOutlined: () => import('@ant-design/icons-svg/es/asn/ExportOutlined'),
  FileSearchOutlined: () => import('@ant-design/icons-svg/es/asn/FileSearchOutlined'),
  FileTextOutlined: () => import('@ant-design/icons-svg/es/asn/FileTextOutlined'),
  FolderOpenOutlined: () => import('@ant-design/icons-svg/es/asn/FolderOpenOutlined'),
  FolderOutlined: () => import('@ant-design/icons-svg/es/asn/FolderOutlined'),
  FormOutlined: () => import('@ant-design/icons-svg/es/asn/FormOutlined'),
  GlobalOutlined: () => import('@ant-design/icons-svg/es/asn/GlobalOutlined'),
  IdcardOutlined: () => import('@ant-design/icons-svg/es/asn/IdcardOutlined'),
  InteractionOutlined: () => import('@ant-design/icons-svg/es/asn/InteractionOutlined'),
  KeyOutlined: () => import('@ant-design/icons-svg/es/asn/KeyOutlined'),
  LineChartOutlined: () => import('@ant-design/icons-svg/es/asn/LineChartOutlined'),
  LogoutOutlined: () => import('@ant-design/icons-svg/es/asn/LogoutOutlined'),
  MedicineBoxOutlined: () => import('@ant-design/icons-svg/es/asn/MedicineBoxOutlined'),
  OrderedListOutlined: () => import('@ant-design/icons-svg/es/asn/OrderedListOutlined'),
  PictureOutlined: () => import('@ant-design/icons-svg/es/asn/PictureOutlined'),
  PieChartOutlined: () => import('@ant-design/icons-svg/es/asn/PieChartOutlined'),
  ProfileOutlined: () => import('@ant-design/icons-svg/es/asn/ProfileOutlined'),
  QuestionCircleOutlined: () => import('@ant-design/icons-svg/es/asn/QuestionCircleOutlined'),
  ReconciliationOutlined: () => import('@ant-design/icons-svg/es/asn/ReconciliationOutlined'),
  SafetyCertificateOutlined: () => import('@ant-design/icons-svg/es/asn/SafetyCertificateOutlined'),
  ScheduleOutlined: () => import('@ant-design/icons-svg/es/asn/ScheduleOutlined'),
  ShoppingCartOutlined: () => import('@ant-design/icons-svg/es/asn/ShoppingCartOutlined'),
  SolutionOutlined: () => import('@ant-design/icons-svg/es/asn/SolutionOutlined'),
  SwapOutlined: () => import('@ant-design/icons-svg/es/asn/SwapOutlined'),
  ToolOutlined: () => import('@ant-design/icons-svg/es/asn/ToolOutlined'),
  UnorderedListOutlined: () => import('@ant-design/icons-svg/es/asn/UnorderedListOutlined'),
  UserAddOutlined: () => import('@ant-design/icons-svg/es/asn/UserAddOutlined'),
  UserOutlined: () => import('@ant-design/icons-svg/es/asn/UserOutlined'),
  UserSwitchOutlined: () => import('@ant-design/icons-svg/es/asn/UserSwitchOutlined'),
};

/** The icons of each menu's top-level items, one chunk per menu (menu-icons-project.ts, menu-icons-person.ts). */
export const PROJECT_TOP_LEVEL = [
  'HomeOutlined',
  'TeamOutlined',
  'SearchOutlined',
  'BarChartOutlined',
  'ScanOutlined',
  'PhoneOutlined',
  'ApartmentOutlined',
  'SettingOutlined',
];
export const PERSON_TOP_LEVEL = [
  'AppstoreOutlined',
  'ProjectOutlined',
  'PartitionOutlined',
  'GiftOutlined',
  'ShoppingOutlined',
  'SettingOutlined',
];

const fromGroup =
  (load: () => Promise<{ TOP_LEVEL_ICONS: Readonly<Record<string, IconDefinition>> }>, name: string) =>
  (): Promise<IconModule> =>
    load().then((module) => {
      const icon = module.TOP_LEVEL_ICONS[name];
      if (!icon) throw new Error(`menu icon ${name} missing from its group`);
      return { default: icon };
    });

/** Every menu icon's loader: a top-level item's from its menu's chunk, a child item's (shown when its parent opens) alone. */
export const MENU_ICONS: Readonly<Record<string, () => Promise<IconModule>>> = {
  ...SEPARATE_ICONS,
  ...Object.fromEntries(PERSON_TOP_LEVEL.map((name) => [name, fromGroup(() => import('./menu-icons-person'), name)])),
  // The project menu's list last: an icon on both menus' top level (设置) comes with the project menu's chunk.
  ...Object.fromEntries(PROJECT_TOP_LEVEL.map((name) => [name, fromGroup(() => import('./menu-icons-project'), name)])),
};

const loaded = new Map<string, IconDefinition>();

/** The menu icon `name`; an empty box of the icon's size until its data has loaded. */
export function MenuIcon({ name }: { name: string | null }) {
  const load = name !== null && Object.hasOwn(MENU_ICONS, name) ? MENU_ICONS[name] : undefined;
  const icon = name === null ? undefined : loaded.get(name);
  const [, setLoadedCount] = useState(0);
  useEffect(() => {
    if (!load || !name || loaded.has(name)) return;
    let live = true;
    load().then(
      (module) => {
        loaded.set(name, module.default);
        if (live) setLoadedCount((n) => n + 1);
      },
      () => undefined, // a chunk that fails to load leaves the box empty: the menu item still works
    );
    return () => {
      live = false;
    };
  }, [load, name]);
  if (!load) return null;
  if (!icon) return <span className="anticon" style={{ width: '1em', height: '1em' }} aria-hidden />;
  return <AntdIcon icon={icon} />;
}
