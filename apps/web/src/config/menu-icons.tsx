import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';

type IconModule = { default: ComponentType };

/**
 * The fixed map from the menu's icon names (antd icon names) to their modules; unknown names show no icon. Each icon
 * is its own small chunk, loaded when a menu shows it: a static map would put all 46 icons on every first route.
 */
export const MENU_ICONS: Readonly<Record<string, () => Promise<IconModule>>> = {
  ApartmentOutlined: () => import('@ant-design/icons/es/icons/ApartmentOutlined'),
  AppstoreOutlined: () => import('@ant-design/icons/es/icons/AppstoreOutlined'),
  AuditOutlined: () => import('@ant-design/icons/es/icons/AuditOutlined'),
  BarChartOutlined: () => import('@ant-design/icons/es/icons/BarChartOutlined'),
  BranchesOutlined: () => import('@ant-design/icons/es/icons/BranchesOutlined'),
  CalendarOutlined: () => import('@ant-design/icons/es/icons/CalendarOutlined'),
  ClusterOutlined: () => import('@ant-design/icons/es/icons/ClusterOutlined'),
  ContactsOutlined: () => import('@ant-design/icons/es/icons/ContactsOutlined'),
  ControlOutlined: () => import('@ant-design/icons/es/icons/ControlOutlined'),
  CrownOutlined: () => import('@ant-design/icons/es/icons/CrownOutlined'),
  DashboardOutlined: () => import('@ant-design/icons/es/icons/DashboardOutlined'),
  DatabaseOutlined: () => import('@ant-design/icons/es/icons/DatabaseOutlined'),
  ExportOutlined: () => import('@ant-design/icons/es/icons/ExportOutlined'),
  FileSearchOutlined: () => import('@ant-design/icons/es/icons/FileSearchOutlined'),
  FileTextOutlined: () => import('@ant-design/icons/es/icons/FileTextOutlined'),
  FolderOpenOutlined: () => import('@ant-design/icons/es/icons/FolderOpenOutlined'),
  FolderOutlined: () => import('@ant-design/icons/es/icons/FolderOutlined'),
  FormOutlined: () => import('@ant-design/icons/es/icons/FormOutlined'),
  GiftOutlined: () => import('@ant-design/icons/es/icons/GiftOutlined'),
  GlobalOutlined: () => import('@ant-design/icons/es/icons/GlobalOutlined'),
  HomeOutlined: () => import('@ant-design/icons/es/icons/HomeOutlined'),
  IdcardOutlined: () => import('@ant-design/icons/es/icons/IdcardOutlined'),
  InteractionOutlined: () => import('@ant-design/icons/es/icons/InteractionOutlined'),
  KeyOutlined: () => import('@ant-design/icons/es/icons/KeyOutlined'),
  LineChartOutlined: () => import('@ant-design/icons/es/icons/LineChartOutlined'),
  MedicineBoxOutlined: () => import('@ant-design/icons/es/icons/MedicineBoxOutlined'),
  OrderedListOutlined: () => import('@ant-design/icons/es/icons/OrderedListOutlined'),
  PartitionOutlined: () => import('@ant-design/icons/es/icons/PartitionOutlined'),
  PhoneOutlined: () => import('@ant-design/icons/es/icons/PhoneOutlined'),
  PieChartOutlined: () => import('@ant-design/icons/es/icons/PieChartOutlined'),
  ProfileOutlined: () => import('@ant-design/icons/es/icons/ProfileOutlined'),
  ProjectOutlined: () => import('@ant-design/icons/es/icons/ProjectOutlined'),
  QuestionCircleOutlined: () => import('@ant-design/icons/es/icons/QuestionCircleOutlined'),
  ReconciliationOutlined: () => import('@ant-design/icons/es/icons/ReconciliationOutlined'),
  SafetyCertificateOutlined: () => import('@ant-design/icons/es/icons/SafetyCertificateOutlined'),
  ScanOutlined: () => import('@ant-design/icons/es/icons/ScanOutlined'),
  ScheduleOutlined: () => import('@ant-design/icons/es/icons/ScheduleOutlined'),
  SearchOutlined: () => import('@ant-design/icons/es/icons/SearchOutlined'),
  SettingOutlined: () => import('@ant-design/icons/es/icons/SettingOutlined'),
  ShoppingCartOutlined: () => import('@ant-design/icons/es/icons/ShoppingCartOutlined'),
  ShoppingOutlined: () => import('@ant-design/icons/es/icons/ShoppingOutlined'),
  SolutionOutlined: () => import('@ant-design/icons/es/icons/SolutionOutlined'),
  TeamOutlined: () => import('@ant-design/icons/es/icons/TeamOutlined'),
  ToolOutlined: () => import('@ant-design/icons/es/icons/ToolOutlined'),
  UnorderedListOutlined: () => import('@ant-design/icons/es/icons/UnorderedListOutlined'),
  UserAddOutlined: () => import('@ant-design/icons/es/icons/UserAddOutlined'),
  UserOutlined: () => import('@ant-design/icons/es/icons/UserOutlined'),
};

// lazy() only wraps the loader: nothing is fetched until a menu renders the icon.
const LAZY_ICONS: Readonly<Record<string, LazyExoticComponent<ComponentType>>> = Object.fromEntries(
  Object.entries(MENU_ICONS).map(([name, load]) => [name, lazy(load)]),
);

/** The menu icon `name`; an empty box of the icon's size until its chunk has loaded. */
export function MenuIcon({ name }: { name: string | null }) {
  const Icon = name && Object.hasOwn(LAZY_ICONS, name) ? LAZY_ICONS[name] : undefined;
  if (!Icon) return null;
  return (
    <Suspense fallback={<span className="anticon" style={{ width: '1em', height: '1em' }} aria-hidden />}>
      <Icon />
    </Suspense>
  );
}
