import type { ReactNode } from 'react';
import { Layout, Typography } from 'antd';
import { useAppStore } from '../../lib/stores/app-store';
import { useProjectStore } from '../../lib/stores/project-store';
import { UserMenu } from './user-menu';

/** The 48 px header: project name (main layout only), hospital, "-department", the user's avatar dropdown. */
export function AppHeader({ showProject, leading }: { showProject: boolean; leading?: ReactNode }) {
  const hospitalName = useAppStore((s) => s.hospitalName);
  const departmentName = useAppStore((s) => s.departmentName);
  const projectName = useProjectStore((s) => s.projectName);

  return (
    <Layout.Header className="app-header">
      <div className="app-header-left">
        {leading}
        {showProject && projectName && (
          <Typography.Text strong className="header-project" title={projectName}>
            {projectName}
          </Typography.Text>
        )}
      </div>
      <div className="app-header-right">
        {hospitalName && (
          <span className="header-org">
            {hospitalName}
            {departmentName && <span className="header-dept">-{departmentName}</span>}
          </span>
        )}
        <UserMenu />
      </div>
    </Layout.Header>
  );
}
