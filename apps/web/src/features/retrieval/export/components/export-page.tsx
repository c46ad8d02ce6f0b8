import { useState } from 'react';
import { Space } from 'antd';
import { ProjectScope } from '../../../../lib/project-scope';
import { ExportForm } from './export-form';
import { ExportHistory, type HistoryPage } from './export-history';

const FIRST_PAGE: HistoryPage = { current: 1, size: 10, mine: false };

/**
 * 数据导出 (`/retrieval/export`, issue 15): 新建导出 (the whole project or a saved query, format, codes or labels, forms
 * and fields, de-identification) above the project's 导出记录 (progress polled, download, cancel).
 */
export function ExportPage() {
  const [page, setPage] = useState<HistoryPage>(FIRST_PAGE);
  return (
    <ProjectScope>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <ExportForm onStarted={() => setPage((p) => ({ ...p, current: 1 }))} />
        <ExportHistory page={page} onPage={setPage} />
      </Space>
    </ProjectScope>
  );
}
