import type { ReactNode } from 'react';
import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { ProjectScope } from '../../../lib/project-scope';
import { useProjectStore } from '../../../lib/stores/project-store';
import { ImportExportTab } from './import-export-tab';
import { MissingCodesTab } from './missing-codes-tab';
import { VersionsTab } from './versions-tab';
import './designer.css';

function configTabs(dictionaryTab: ReactNode) {
  return [
    { key: 'versions', label: '版本历史', children: <VersionsTab /> },
    { key: 'io', label: '导入导出', children: <ImportExportTab /> },
    ...(dictionaryTab ? [{ key: 'dict', label: '选项字典', children: dictionaryTab }] : []),
    { key: 'missing', label: '缺失值编码', children: <MissingCodesTab /> },
  ];
}

/**
 * `/manage/database/config` (and `/sub`): versions, import and export, option lists, missing-data codes. The 选项字典
 * tab is the dictionary feature's manager, passed in by the route (`src/app/pages/database-config.tsx`): features do
 * not import each other.
 */
export function DatabaseConfigPage({ dictionaryTab }: { dictionaryTab?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const projectName = useProjectStore((s) => s.projectName);
  const tabs = configTabs(dictionaryTab);
  const wanted = params.get('tab') ?? 'versions';
  const active = tabs.some((t) => t.key === wanted) ? wanted : 'versions';
  return (
    <Card title={projectName ? `数据库配置 · ${projectName}` : '数据库配置'} variant="borderless">
      <ProjectScope>
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          items={tabs}
          destroyOnHidden
        />
      </ProjectScope>
    </Card>
  );
}
