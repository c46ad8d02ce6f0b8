import type { PlanApplyResponse } from '@registry/shared/contracts/followup';

/** What an activation or rule run did, as one sentence. */
export function applyResultText(r: PlanApplyResponse): string {
  const text = `已分配 ${r.assigned} 名患者，生成 ${r.tasksCreated} 条随访任务，${r.waitingForAnchor} 名患者缺少基准日期`;
  return r.waitingForAnchor > 0 ? `${text}（录入基准日期后自动生成其随访任务）。` : `${text}。`;
}
