import { describe, expect, it } from 'vitest';
import { auditFieldLabel } from './audit';

describe('auditFieldLabel', () => {
  it('should label the keys of audit values in Chinese, segment by segment, and keep unknown keys', () => {
    expect(auditFieldLabel('projectId')).toBe('项目');
    expect(auditFieldLabel('status')).toBe('状态');
    expect(auditFieldLabel('data.weight')).toBe('数据.weight');
  });

  it('should name the form field keys after `values` by the event’s field labels, and no other segment', () => {
    const labels = { status: '病情状态', meds: '用药', dose: '剂量' };
    expect(auditFieldLabel('values.meds.0.dose', labels)).toBe('数据.用药.0.剂量');
    expect(auditFieldLabel('values.status', labels)).toBe('数据.病情状态');
    expect(auditFieldLabel('status', labels)).toBe('状态');
    expect(auditFieldLabel('values.unknown_key', labels)).toBe('数据.unknown_key');
  });
});
