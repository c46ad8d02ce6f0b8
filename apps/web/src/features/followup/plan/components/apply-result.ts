import type { PlanApplyResponse } from '@registry/shared/contracts/followup';

/** What an activation or rule run did, as one sentence. */
export function applyResultText(r: PlanApplyResponse): string {
  const stopped = r.stopped > 0 ? `，${r.stopped} 名患者不再符合规则已停止随访` : '';
  const text = `已分配 ${r.assigned} 名患者，生成 ${r.tasksCreated} 条随访任务${stopped}，${r.waitingForAnchor} 名患者缺少基准日期`;
  return r.waitingForAnchor > 0 ? `${text}（录入基准日期后自动生成其随访任务）。` : `${text}。`;
}
