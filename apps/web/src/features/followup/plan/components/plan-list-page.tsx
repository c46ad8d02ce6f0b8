import { useState } from 'react';
import { Alert, Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { PlanVO } from '@registry/shared/contracts/followup';
import { ASSIGN_MODE_LABELS, PLAN_STATUS_LABELS, type PlanStatus } from '@registry/shared/contracts/followup-codes';
import { PERMISSIONS } from '@registry/shared/permissions';
import { formatTime } from '../../../../lib/format-time';
import { Permission } from '../../../../lib/permission';
import { ProjectScope } from '../../../../lib/project-scope';
import { useProjectStore } from '../../../../lib/stores/project-store';
import { usePlans } from '../../../../api/followup-plans';
import { PlanActions } from './plan-actions';
import { EDITOR_PATH } from './paths';
import { PlanPatientsDrawer } from './plan-patients-drawer';
import { StopPlanDialog } from './stop-plan-dialog';

const STATUS_COLORS: Readonly<Record<PlanStatus, string>> = { draft: 'default', active: 'green', stopped: 'orange' };

function CreateButtons() {
  const navigate = useNavigate();
  return (
    <Permission codes={[PERMISSIONS.followupConfig]}>
      <Space wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(EDITOR_PATH.relative)}>
          新建相对随访计划
        </Button>
        <Button icon={<PlusOutlined />} onClick={() => void navigate(EDITOR_PATH.fixed)}>
          新建固定随访计划
        </Button>
      </Space>
    </Permission>
  );
}

function anchorText(plan: PlanVO): string {
  if (plan.kind === 'relative') return plan.anchorLabel ?? '—';
  return plan.period ? `每 ${plan.period.everyMonths} 个月，共 ${plan.period.times} 次` : '指定日期';
}

function PlansEmpty() {
  return (
    <Empty
      description={
        <Space orientation="vertical" size={4}>
          <Typography.Text strong>还没有随访计划</Typography.Text>
          <Typography.Text type="secondary">
            随访计划规定患者何时随访：相对随访计划按基准日期（入组日期或表单中的日期，如手术日期）加间隔安排访视；
            固定随访计划按指定日期或周期（每 N 个月，共 M 次）安排。每个访视有窗口期、要填写的表单和随访方式。
            计划启用后，按规则或手动分配给患者，并为每位患者生成随访任务。
          </Typography.Text>
        </Space>
      }
    >
      <CreateButtons />
    </Empty>
  );
}

function PlanTable() {
  const plans = usePlans();
  const [stopping, setStopping] = useState<PlanVO | null>(null);
  const [patientsOf, setPatientsOf] = useState<PlanVO | null>(null);
  // The drawer follows the list's fresh copy (status, counts) of the plan it shows.
  const drawerPlan = patientsOf ? (plans.data?.find((p) => p.id === patientsOf.id) ?? patientsOf) : null;

  if (plans.isError) return <Alert type="error" showIcon title="随访计划加载失败，请稍后重试" />;
  if (plans.data?.length === 0) return <PlansEmpty />;
  return (
    <>
      <div className="table-toolbar">
        <Typography.Text type="secondary">草稿计划不随访任何患者；启用后开始分配患者并生成随访任务。</Typography.Text>
        <CreateButtons />
      </div>
      <Table<PlanVO>
        rowKey="id"
        size="middle"
        loading={plans.isPending}
        dataSource={plans.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => `共 ${total} 个随访计划` }}
        columns={[
          {
            title: '计划名称',
            dataIndex: 'name',
            render: (name: string, p) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{name}</Typography.Text>
                {p.description && (
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 240 }}>
                    {p.description}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: '类型',
            dataIndex: 'kind',
            render: (kind: PlanVO['kind']) =>
              kind === 'relative' ? <Tag color="blue">相对</Tag> : <Tag color="purple">固定</Tag>,
          },
          { title: '基准日期 / 周期', key: 'anchor', render: (_: unknown, p) => anchorText(p) },
          { title: '访视数', key: 'visits', render: (_: unknown, p) => p.period?.times ?? p.visits.length },
          { title: '分配方式', dataIndex: 'assignMode', render: (m: PlanVO['assignMode']) => ASSIGN_MODE_LABELS[m] },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: PlanStatus) => <Tag color={STATUS_COLORS[s]}>{PLAN_STATUS_LABELS[s]}</Tag>,
          },
          { title: '随访患者', dataIndex: 'patientCount' },
          { title: '未完成任务', dataIndex: 'openTaskCount' },
          {
            title: '超窗',
            dataIndex: 'overdueTaskCount',
            render: (n: number) => (n > 0 ? <Typography.Text type="danger">{n}</Typography.Text> : n),
          },
          { title: '更新时间', dataIndex: 'updatedAt', render: (v: string) => formatTime(v) },
          {
            title: '操作',
            key: 'actions',
            fixed: 'right',
            render: (_: unknown, p) => <PlanActions plan={p} onStop={setStopping} onPatients={setPatientsOf} />,
          },
        ]}
      />
      <StopPlanDialog plan={stopping} onClose={() => setStopping(null)} />
      <PlanPatientsDrawer plan={drawerPlan} onClose={() => setPatientsOf(null)} />
    </>
  );
}

/** `/manage/followup` (随访管理): the current project's follow-up plans and their patients. */
export function FollowupPlanListPage() {
  const projectName = useProjectStore((s) => s.projectName);
  return (
    <Card title={projectName ? `随访管理 · ${projectName}` : '随访管理'} variant="borderless">
      <ProjectScope>
        <PlanTable />
      </ProjectScope>
    </Card>
  );
}
