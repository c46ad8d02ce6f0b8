import { describe, expect, it } from 'vitest';
import { buildPatient, buildSummary, RECORD_DEFINITION } from '../test-factories';
import { buildTimeline } from './timeline';

describe('buildTimeline', () => {
  it('should order registration, enrolment and every record step by date, enrolment first on its day', () => {
    const events = buildTimeline(
      buildPatient({ createdAt: '2026-03-02T08:00:00.000Z', enrolDate: '2026-03-02' }),
      [
        buildSummary({
          formKey: 'followup_visit',
          instance: 2,
          createdAt: '2026-05-01T02:00:00.000Z',
          lockedAt: '2026-05-20T02:00:00.000Z',
          submittedAt: '2026-05-01T03:00:00.000Z',
          verifiedAt: '2026-05-10T03:00:00.000Z',
        }),
        buildSummary({ createdAt: '2026-03-02T09:00:00.000Z' }),
      ],
      RECORD_DEFINITION,
    );
    expect(events.map((e) => e.title)).toEqual([
      '入组',
      '建档登记',
      '录入「生命体征」',
      '录入「随访记录」第 2 次',
      '提交「随访记录」第 2 次',
      '核查「随访记录」第 2 次',
      '锁定「随访记录」第 2 次',
    ]);
    expect(events[3]).toMatchObject({ formKey: 'followup_visit', instance: 2, kind: 'created' });
  });
});
