import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import HomeOutlined from '@ant-design/icons-svg/es/asn/HomeOutlined';
import TeamOutlined from '@ant-design/icons-svg/es/asn/TeamOutlined';
import SearchOutlined from '@ant-design/icons-svg/es/asn/SearchOutlined';
import BarChartOutlined from '@ant-design/icons-svg/es/asn/BarChartOutlined';
import ScanOutlined from '@ant-design/icons-svg/es/asn/ScanOutlined';
import PhoneOutlined from '@ant-design/icons-svg/es/asn/PhoneOutlined';
import ApartmentOutlined from '@ant-design/icons-svg/es/asn/ApartmentOutlined';
import SettingOutlined from '@ant-design/icons-svg/es/asn/SettingOutlined';

/**
 * The icons of the top-level items of {'project': 'the project menu (main layout)', 'person': 'the personal menu (person layout)'}, shown whenever it is: one chunk, since gzip compresses
 * their SVG data together to about half of what separate chunks take (menu-icons.tsx). menu-icons.test.ts keeps the
 * list in step with the menu definitions.
 */
export const TOP_LEVEL_ICONS: Readonly<Record<string, IconDefinition>> = {
  HomeOutlined,
  TeamOutlined,
  SearchOutlined,
  BarChartOutlined,
  ScanOutlined,
  PhoneOutlined,
  ApartmentOutlined,
  SettingOutlined,
};
