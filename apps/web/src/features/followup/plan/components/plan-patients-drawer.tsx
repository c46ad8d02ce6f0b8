import { useState } from 'react';
import { Button, Drawer, Input, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { AssignmentVO, PlanVO } from '@registry/shared/contracts/followup';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { usePatientKeywordPlaceholder } from '../../../../lib/permission';
import { useMenuStore } from '../../../../lib/stores/menu-store';
import { useAssignments } from '../api/page-assignments';
import { AddPatientsDialog } from './add-patients-dialog';
import { RemovePatientDialog } from './remove-patient-dialog';
import { listEmptyText } from '../../../../components/list-empty/list-empty';

const PAGE_SIZE = 20;

/** 患者: the patients of a plan (search, add by hand, remove with a reason). */
export function PlanPatientsDrawer({ plan, onClose }: { plan: PlanVO | null; onClose: () => void }) {
  const [keyword, setKeyword] = useState('');
  const [current, setCurrent] = useState(1);
  const keywordPlaceholder = usePatientKeywordPlaceholder();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<AssignmentVO | null>(null);
  const planId = plan?.id ?? '';
  const canConfig = hasAnyPermission(
    useMenuStore((st) => st.permissions),
    [PERMISSIONS.followupConfig],
  );
  const page = useAssignments({ planId, current, size: PAGE_SIZE, ...(keyword ? { keyword } : {}) }, plan !== null);
  const close = () => {
    setKeyword('');
    setCurrent(1);
    onClose();
  };
  return (
    <Drawer
      title={plan ? `计划患者 · ${plan.name}` : '计划患者'}
      open={plan !== null}
      onClose={close}
      size={860}
      destroyOnHidden
    >
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Input.Search
          aria-label="搜索计划患者"
          placeholder={keywordPlaceholder}
          allowClear
          onSearch={(value) => {
            setKeyword(value.trim());
            setCurrent(1);
          }}
          style={{ width: 280 }}
        />
        {canConfig && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={plan?.status !== 'active'}
            title={plan?.status !== 'active' ? '计划启用后才能添加患者' : undefined}
            onClick={() => setAdding(true)}
          >
            添加患者
          </Button>
        )}
      </Space>
      {canConfig && plan?.status !== 'active' && (
        <Typography.Paragraph type="secondary">计划启用后才能添加患者。</Typography.Paragraph>
      )}
      <Table<AssignmentVO>
        rowKey="id"
        size="small"
        loading={page.isFetching}
        dataSource={page.data?.records ?? []}
        locale={{ emptyText: listEmptyText(page, keyword ? '没有匹配的患者' : '暂无患者执行此计划') }}
        pagination={{
          current,
          pageSize: PAGE_SIZE,
          total: page.data?.total ?? 0,
          onChange: setCurrent,
          showSizeChanger: false,
          showTotal: (total) => `共 ${total} 名患者`,
        }}
        columns={[
          { title: '患者编号', dataIndex: 'patientNo' },
          { title: '姓名', dataIndex: 'patientName' },
          { title: '中心', dataIndex: 'centerName' },
          {
            title: '来源',
            dataIndex: 'source',
            render: (s: AssignmentVO['source']) => (s === 'rule' ? <Tag color="blue">规则</Tag> : <Tag>手动</Tag>),
          },
          {
            title: '基准日期',
            dataIndex: 'anchorDate',
            render: (v: string | null) => v ?? <Typography.Text type="warning">缺少</Typography.Text>,
          },
          { title: '完成', key: 'progress', render: (_: unknown, a) => `${a.tasksDone}/${a.tasksTotal}` },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: AssignmentVO['status']) =>
              s === 'active' ? <Tag color="green">随访中</Tag> : <Tag>已移出</Tag>,
          },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, a) =>
              canConfig && a.status === 'active' ? (
                <Button
                  type="link"
                  size="small"
                  danger
                  aria-label={`移出 ${a.patientNo}`}
                  onClick={() => setRemoving(a)}
                >
                  移出
                </Button>
              ) : null,
          },
        ]}
      />
      {plan && <AddPatientsDialog planId={plan.id} open={adding} onClose={() => setAdding(false)} />}
      <RemovePatientDialog assignment={removing} onClose={() => setRemoving(null)} />
    </Drawer>
  );
}
