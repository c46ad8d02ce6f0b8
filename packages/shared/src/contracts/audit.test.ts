import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditEntityLabel, auditPageRequest } from './audit';

describe('audit labels', () => {
  it('should name a known action in Chinese when it is in the table', () => {
    expect(auditActionLabel('login')).toBe('登录');
    expect(auditActionLabel('user.update')).toBe('修改用户');
    expect(auditActionLabel('project.create')).toBe('创建项目');
  });

  it('should compose a label from the verb and the entity when the action is not in the table', () => {
    expect(auditActionLabel('center.lock')).toBe('锁定分中心');
    expect(auditActionLabel('patient.import')).toBe('导入患者');
    expect(auditActionLabel('join-request.delete')).toBe('删除加入申请');
  });

  it('should fall back to the code when neither the action nor its parts are known', () => {
    expect(auditActionLabel('widget.frobnicate')).toBe('widget.frobnicate');
    expect(auditEntityLabel('widget')).toBe('widget');
    expect(auditEntityLabel('project')).toBe('项目');
  });
});

describe('auditPageRequest', () => {
  it('should default to the first page of 20 when the body is missing', () => {
    expect(auditPageRequest.parse(undefined)).toEqual({ current: 1, size: 20 });
  });

  it('should refuse a malformed time or actor id when filtering', () => {
    expect(auditPageRequest.safeParse({ from: 'yesterday' }).success).toBe(false);
    expect(auditPageRequest.safeParse({ actorId: '42' }).success).toBe(false);
    expect(
      auditPageRequest.safeParse({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-22T23:59:59+08:00' }).success,
    ).toBe(true);
  });
});
