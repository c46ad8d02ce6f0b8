import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { ProjectScope } from '../../../lib/project-scope';
import { useProjectStore } from '../../../lib/stores/project-store';
// The one cross-feature import the lead allowed: the option lists are managed here as a tab.
import { DictionaryManager } from '../../dictionary/components/dictionary-manager';
import { ImportExportTab } from './import-export-tab';
import { MissingCodesTab } from './missing-codes-tab';
import { VersionsTab } from './versions-tab';
import './designer.css';

const TABS = [
  { key: 'versions', label: '版本历史', children: <VersionsTab /> },
  { key: 'io', label: '导入导出', children: <ImportExportTab /> },
  { key: 'dict', label: '选项字典', children: <DictionaryManager /> },
  { key: 'missing', label: '缺失值编码', children: <MissingCodesTab /> },
];

/** `/manage/database/config` (and `/sub`): versions, import and export, option lists, missing-data codes. */
export function DatabaseConfigPage() {
  const [params, setParams] = useSearchParams();
  const projectName = useProjectStore((s) => s.projectName);
  const wanted = params.get('tab') ?? 'versions';
  const active = TABS.some((t) => t.key === wanted) ? wanted : 'versions';
  return (
    <Card title={projectName ? `数据库配置 · ${projectName}` : '数据库配置'} variant="borderless">
      <ProjectScope>
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          items={TABS}
          destroyOnHidden
        />
      </ProjectScope>
    </Card>
  );
}
