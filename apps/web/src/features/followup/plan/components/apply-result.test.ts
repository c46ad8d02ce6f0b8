import { describe, expect, it } from 'vitest';
import { applyResultText } from './apply-result';

describe('applyResultText', () => {
  it('should name the stopped patients only when the rule stopped some', () => {
    expect(applyResultText({ assigned: 2, tasksCreated: 8, waitingForAnchor: 0, stopped: 0 })).toBe(
      '已分配 2 名患者，生成 8 条随访任务，0 名患者缺少基准日期。',
    );
    expect(applyResultText({ assigned: 0, tasksCreated: 0, waitingForAnchor: 1, stopped: 3 })).toBe(
      '已分配 0 名患者，生成 0 条随访任务，3 名患者不再符合规则已停止随访，1 名患者缺少基准日期（录入基准日期后自动生成其随访任务）。',
    );
  });
});
