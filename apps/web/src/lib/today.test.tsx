import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { shanghaiDate } from '@registry/shared/dates';
import { validateRecord } from '@registry/shared/forms/record';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { DeathDialog } from '../features/followup/components/death-dialog';
import { ageLabel, shanghaiToday } from '@registry/shared/dates';
import { renderWithProviders } from '../test/render';
import { afterToday } from './today';

/**
 * 17:00 UTC on 1 January is 01:00 on 2 January in Shanghai: a browser in UTC (or anywhere west of UTC+8 until its
 * midnight) still has 1 January. The web must take the server's day (`shanghaiDate(clock.now())` on the server).
 */
const INSTANT = new Date('2026-01-01T17:00:00Z');
const SERVER_TODAY = shanghaiDate(INSTANT);

let zone: string | undefined;
beforeAll(() => {
  zone = process.env.TZ;
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(INSTANT);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the web's today is Shanghai's, as on the server", () => {
  it('should run where the browser has another day than Shanghai', () => {
    expect(SERVER_TODAY).toBe('2026-01-02');
    expect(dayjs().format('YYYY-MM-DD')).toBe('2026-01-01');
  });

  it("should let a date be picked up to the server's today, not the browser's", () => {
    // the server refuses a death date after its today (followup-record.service: deathDate > today())
    const serverRefuses = (date: string) => date > SERVER_TODAY;
    for (const date of ['2026-01-01', '2026-01-02', '2026-01-03', '2026-12-31'])
      expect(afterToday(dayjs(date)), date).toBe(serverRefuses(date));
  });

  it('should check "today" date bounds of a CRF as the server does', () => {
    const form: FormDefinition = {
      key: 'visit',
      title: '随访',
      fields: [{ key: 'd', label: '就诊日期', type: 'date', maxDate: 'today' }],
    };
    for (const d of ['2026-01-02', '2026-01-03']) {
      // the web's call (crf-form, record session) passes no today; the server passes shanghaiDate(clock.now())
      const web = validateRecord(form, { d }, { mode: 'submit' }).issues;
      const server = validateRecord(form, { d }, { mode: 'submit', today: SERVER_TODAY }).issues;
      expect(web, d).toEqual(server);
    }
    expect(validateRecord(form, { d: '2026-01-02' }, { mode: 'submit' }).valid).toBe(true);
  });

  it("should count a patient's age in years on Shanghai's day", () => {
    expect(ageLabel('2000-01-02', shanghaiToday())).toBe('26岁');
  });

  it("should offer the server's today in the death date picker and nothing after it", async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(
      <DeathDialog patientId="p" patientLabel="P-1" birthDate={null} onClose={() => {}} onRecorded={() => {}} />,
    );
    await user.click(screen.getByLabelText('死亡日期'));
    const cell = (date: string) => document.querySelector(`td[title="${date}"]`);
    await screen.findByTitle('2026-01-02');
    expect(cell('2026-01-02')).not.toHaveClass('ant-picker-cell-disabled');
    expect(cell('2026-01-01')).not.toHaveClass('ant-picker-cell-disabled');
    expect(cell('2026-01-03')).toHaveClass('ant-picker-cell-disabled');
  });
});
