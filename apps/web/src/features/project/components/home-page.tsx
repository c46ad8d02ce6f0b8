import { Card, Col, Descriptions, Row, Spin, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { ROUTES } from '../../../config/routes';
import { useCurrentProject } from '../api/get-current-project';
import { FollowupSummaryCards } from './followup-summary-cards';

const MAIN_PAGES = ROUTES.filter((route) => route.layout === 'main' && route.path !== '/home');

/** `/home`: the current project and what the platform offers so far. */
export function HomePage() {
  const current = useCurrentProject();
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card title="当前项目">
          {current.isPending ? (
            <Spin />
          ) : current.data ? (
            <Descriptions column={{ xs: 1, md: 3 }}>
              <Descriptions.Item label="项目名称">{current.data.projectName}</Descriptions.Item>
              <Descriptions.Item label="项目编号">{current.data.projectCode}</Descriptions.Item>
              <Descriptions.Item label="项目类型">{current.data.subProject ? '子项目' : '主项目'}</Descriptions.Item>
            </Descriptions>
          ) : (
            <Typography.Text type="secondary">
              尚未选择项目，请先 <Link to="/person/project">选择项目</Link>。
            </Typography.Text>
          )}
        </Card>
      </Col>
      {current.data && (
        <Col span={24}>
          <FollowupSummaryCards />
        </Col>
      )}
      <Col span={24}>
        <Card
          title="功能模块"
          extra={
            <Typography.Text type="secondary">
              已开放 {MAIN_PAGES.filter((route) => route.ready).length} / {MAIN_PAGES.length} 个页面
            </Typography.Text>
          }
        >
          <Row gutter={[12, 12]}>
            {MAIN_PAGES.map((route) => (
              <Col key={route.path} xs={24} sm={12} md={8} lg={6} xl={4}>
                <Card size="small">
                  <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
                    <Link to={route.path}>{route.title}</Link>
                    {route.ready ? <Tag color="green">可用</Tag> : <Tag>建设中</Tag>}
                  </div>
                </Card>
              </Col>
            ))}
          </Row>
        </Card>
      </Col>
    </Row>
  );
}
