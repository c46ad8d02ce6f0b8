import { Card, Col, Descriptions, Row, Spin, Typography } from 'antd';
import { Link } from 'react-router';
import { useCurrentProject } from '../../../api/projects';
import { FollowupSummaryCards } from './followup-summary-cards';

/** `/home`: the current project and, for follow-up staff, the follow-up figures. */
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
    </Row>
  );
}
