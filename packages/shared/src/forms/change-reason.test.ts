import { describe, expect, it } from 'vitest';
import { RECORD_STATUSES } from '../contracts/form-record-codes';
import { recordSaveRequest } from '../contracts/form-record';
import { taskFormSaveRequest } from '../contracts/followup';
import { CHANGE_REASON, missingChangeReason, needsChangeReason } from './change-reason';

describe('needsChangeReason', () => {
  it('should ask a reason of a submitted or verified record only', () => {
    expect(RECORD_STATUSES.filter((s) => needsChangeReason(s))).toEqual(['submitted', 'verified']);
    expect(needsChangeReason(null)).toBe(false);
  });
});

describe('missingChangeReason', () => {
  it('should refuse a change of a submitted or verified record without a reason', () => {
    expect(missingChangeReason('submitted', true, undefined)).toBe(true);
    expect(missingChangeReason('verified', true, '  ')).toBe(true);
    expect(missingChangeReason('submitted', true, null)).toBe(true);
  });

  it('should accept a reason, a save without changes, and a draft', () => {
    expect(missingChangeReason('submitted', true, '复核化验单')).toBe(false);
    expect(missingChangeReason('verified', false, undefined)).toBe(false);
    expect(missingChangeReason('draft', true, undefined)).toBe(false);
  });
});

describe('CHANGE_REASON', () => {
  it('should be the limit and message of both save contracts (the record and the follow-up task)', () => {
    const base = { patientId: '00000000-0000-4000-8000-000000000000', formKey: 'vitals', rowVersion: 0, data: {} };
    expect(recordSaveRequest.safeParse({ ...base, reason: 'x'.repeat(CHANGE_REASON.maxLength) }).success).toBe(true);
    const long = recordSaveRequest.safeParse({ ...base, reason: 'x'.repeat(CHANGE_REASON.maxLength + 1) });
    expect(long.error?.issues.map((i) => i.message)).toEqual([CHANGE_REASON.tooLong]);
    const task = { taskId: base.patientId, formKey: 'vitals', versionId: base.patientId, data: {}, rowVersion: null };
    expect(taskFormSaveRequest.safeParse({ ...task, reason: 'x'.repeat(CHANGE_REASON.maxLength) }).success).toBe(true);
    const longTask = taskFormSaveRequest.safeParse({ ...task, reason: 'x'.repeat(CHANGE_REASON.maxLength + 1) });
    expect(longTask.error?.issues.map((i) => i.message)).toEqual([CHANGE_REASON.tooLong]);
    expect(CHANGE_REASON.tooLong).toContain(String(CHANGE_REASON.maxLength));
  });
});
