import { useEffect, useState } from 'react';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
// The renderer every antd icon module wraps (already on every page): the menu loads only each icon's SVG data.
import AntdIcon from '@ant-design/icons/es/components/AntdIconLight';

type IconModule = { default: IconDefinition };

/**
 * The fixed map from the menu's icon names (antd icon names) to their SVG data (@ant-design/icons-svg, the data antd's
 * icon components render); unknown names show no icon. Each is its own small chunk, loaded when a menu shows it: a
 * static map would put all 47 icons on every first route, and a whole icon component per chunk would repeat its
 * wrapper in each.
 */
export const MENU_ICONS: Readonly<Record<string, () => Promise<IconModule>>> = {
  ApartmentOutlined: () => import('@ant-design/icons-svg/es/asn/ApartmentOutlined'),
  AppstoreOutlined: () => import('@ant-design/icons-svg/es/asn/AppstoreOutlined'),
  AuditOutlined: () => import('@ant-design/icons-svg/es/asn/AuditOutlined'),
  BarChartOutlined: () => import('@ant-design/icons-svg/es/asn/BarChartOutlined'),
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
  GiftOutlined: () => import('@ant-design/icons-svg/es/asn/GiftOutlined'),
  GlobalOutlined: () => import('@ant-design/icons-svg/es/asn/GlobalOutlined'),
  HomeOutlined: () => import('@ant-design/icons-svg/es/asn/HomeOutlined'),
  IdcardOutlined: () => import('@ant-design/icons-svg/es/asn/IdcardOutlined'),
  InteractionOutlined: () => import('@ant-design/icons-svg/es/asn/InteractionOutlined'),
  KeyOutlined: () => import('@ant-design/icons-svg/es/asn/KeyOutlined'),
  LineChartOutlined: () => import('@ant-design/icons-svg/es/asn/LineChartOutlined'),
  MedicineBoxOutlined: () => import('@ant-design/icons-svg/es/asn/MedicineBoxOutlined'),
  OrderedListOutlined: () => import('@ant-design/icons-svg/es/asn/OrderedListOutlined'),
  PartitionOutlined: () => import('@ant-design/icons-svg/es/asn/PartitionOutlined'),
  PhoneOutlined: () => import('@ant-design/icons-svg/es/asn/PhoneOutlined'),
  PieChartOutlined: () => import('@ant-design/icons-svg/es/asn/PieChartOutlined'),
  ProfileOutlined: () => import('@ant-design/icons-svg/es/asn/ProfileOutlined'),
  ProjectOutlined: () => import('@ant-design/icons-svg/es/asn/ProjectOutlined'),
  QuestionCircleOutlined: () => import('@ant-design/icons-svg/es/asn/QuestionCircleOutlined'),
  ReconciliationOutlined: () => import('@ant-design/icons-svg/es/asn/ReconciliationOutlined'),
  SafetyCertificateOutlined: () => import('@ant-design/icons-svg/es/asn/SafetyCertificateOutlined'),
  ScanOutlined: () => import('@ant-design/icons-svg/es/asn/ScanOutlined'),
  ScheduleOutlined: () => import('@ant-design/icons-svg/es/asn/ScheduleOutlined'),
  SearchOutlined: () => import('@ant-design/icons-svg/es/asn/SearchOutlined'),
  SettingOutlined: () => import('@ant-design/icons-svg/es/asn/SettingOutlined'),
  ShoppingCartOutlined: () => import('@ant-design/icons-svg/es/asn/ShoppingCartOutlined'),
  ShoppingOutlined: () => import('@ant-design/icons-svg/es/asn/ShoppingOutlined'),
  SolutionOutlined: () => import('@ant-design/icons-svg/es/asn/SolutionOutlined'),
  TeamOutlined: () => import('@ant-design/icons-svg/es/asn/TeamOutlined'),
  ToolOutlined: () => import('@ant-design/icons-svg/es/asn/ToolOutlined'),
  UnorderedListOutlined: () => import('@ant-design/icons-svg/es/asn/UnorderedListOutlined'),
  UserAddOutlined: () => import('@ant-design/icons-svg/es/asn/UserAddOutlined'),
  UserOutlined: () => import('@ant-design/icons-svg/es/asn/UserOutlined'),
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
