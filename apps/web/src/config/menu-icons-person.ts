import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import AppstoreOutlined from '@ant-design/icons-svg/es/asn/AppstoreOutlined';
import ProjectOutlined from '@ant-design/icons-svg/es/asn/ProjectOutlined';
import PartitionOutlined from '@ant-design/icons-svg/es/asn/PartitionOutlined';
import GiftOutlined from '@ant-design/icons-svg/es/asn/GiftOutlined';
import ShoppingOutlined from '@ant-design/icons-svg/es/asn/ShoppingOutlined';
import SettingOutlined from '@ant-design/icons-svg/es/asn/SettingOutlined';

/**
 * The icons of the top-level items of {'project': 'the project menu (main layout)', 'person': 'the personal menu (person layout)'}, shown whenever it is: one chunk, since gzip compresses
 * their SVG data together to about half of what separate chunks take (menu-icons.tsx). menu-icons.test.ts keeps the
 * list in step with the menu definitions.
 */
export const TOP_LEVEL_ICONS: Readonly<Record<string, IconDefinition>> = {
  AppstoreOutlined,
  ProjectOutlined,
  PartitionOutlined,
  GiftOutlined,
  ShoppingOutlined,
  SettingOutlined,
};
