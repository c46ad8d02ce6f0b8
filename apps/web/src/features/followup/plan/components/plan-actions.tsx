import { Button, Popconfirm, Space } from 'antd';
import { useNavigate } from 'react-router';
import type { PlanVO } from '@registry/shared/contracts/followup';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { useFeedback } from '../../../../components/feedback/feedback-context';
import { useMenuStore } from '../../../../lib/stores/menu-store';
import { withSuccessToast } from '../../../../lib/toast';
import { useActivatePlan } from '../api/activate-plan';
import { useApplyPlan } from '../api/apply-plan';
import { useDeletePlan } from '../api/delete-plan';
import { applyResultText } from './apply-result';
import { EDITOR_PATH } from './paths';

type Props = { plan: PlanVO; onStop: (plan: PlanVO) => void; onPatients: (plan: PlanVO) => void };

/** A plan row's actions: 编辑, 启用 / 停用, 按规则重新分配, 删除 (drafts), 患者. */
export function PlanActions({ plan, onStop, onPatients }: Props) {
  const navigate = useNavigate();
  const { modal } = useFeedback();
  const activate = useActivatePlan();
  const apply = useApplyPlan();
  const remove = useDeletePlan();
  // Changing plans takes followup.config; followup.list only sees them and their patients.
  const canConfig = hasAnyPermission(
    useMenuStore((st) => st.permissions),
    [PERMISSIONS.followupConfig],
  );
  const run = async (action: typeof activate, title: string) => {
    try {
      const result = await action.mutateAsync(plan.id);
      modal.success({ title, content: applyResultText(result), okText: '知道了' });
    } catch {
      // The request layer showed the server's message.
    }
  };
  const link = (label: string, onClick: () => void, danger = false) => (
    <Button type="link" size="small" danger={danger} aria-label={`${label} ${plan.name}`} onClick={onClick}>
      {label}
    </Button>
  );
  return (
    <Space size={0} wrap>
      {canConfig && link('编辑', () => void navigate(`${EDITOR_PATH[plan.kind]}?id=${plan.id}`))}
      {canConfig && plan.status !== 'active' && (
        <Popconfirm
          title={`确定启用“${plan.name}”吗？`}
          description={
            plan.assignMode === 'auto'
              ? '启用后按规则分配患者，并为其生成随访任务。'
              : '启用后可在“患者”中添加患者，并为其生成随访任务。'
          }
          okText="启用"
          cancelText="取消"
          onConfirm={() => run(activate, '随访计划已启用')}
        >
          <Button type="link" size="small" aria-label={`启用 ${plan.name}`} loading={activate.isPending}>
            启用
          </Button>
        </Popconfirm>
      )}
      {canConfig && plan.status === 'active' && link('停用', () => onStop(plan), true)}
      {canConfig && plan.status === 'active' && plan.assignMode === 'auto' && (
        <Popconfirm
          title="按规则重新分配"
          description="按当前规则重新检查本项目的患者，为新符合条件的患者分配计划并生成随访任务。"
          okText="重新分配"
          cancelText="取消"
          onConfirm={() => run(apply, '已按规则重新分配')}
        >
          <Button type="link" size="small" aria-label={`按规则重新分配 ${plan.name}`} loading={apply.isPending}>
            按规则重新分配
          </Button>
        </Popconfirm>
      )}
      {link('患者', () => onPatients(plan))}
      {canConfig && plan.status === 'draft' && (
        <Popconfirm
          title={`确定删除草稿“${plan.name}”吗？`}
          okText="删除"
          okButtonProps={{ danger: true }}
          cancelText="取消"
          onConfirm={() => withSuccessToast(remove.mutateAsync(plan.id))}
        >
          <Button type="link" size="small" danger aria-label={`删除 ${plan.name}`}>
            删除
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
