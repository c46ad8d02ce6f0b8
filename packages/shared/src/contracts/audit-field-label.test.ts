import { describe, expect, it } from 'vitest';
import { auditFieldLabel } from './audit';

describe('auditFieldLabel', () => {
  it('should label the keys of audit values in Chinese, segment by segment, and keep unknown keys', () => {
    expect(auditFieldLabel('projectId')).toBe('项目');
    expect(auditFieldLabel('status')).toBe('状态');
    expect(auditFieldLabel('data.weight')).toBe('数据.weight');
  });
});
