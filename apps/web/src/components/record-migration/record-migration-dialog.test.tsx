import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MigrationPreviewResponse } from '@registry/shared/contracts/record-migration';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderWithProviders } from '../../test/render';
import { setToken } from '../../lib/token';
import { RecordMigrationDialog } from './record-migration-dialog';

const item = (over: Partial<MigrationPreviewResponse['items'][number]>) => ({
  recordId: 'r1',
  patientId: 'p1',
  patientNo: 'C01-0001',
  formKey: 'vitals',
  formTitle: '生命体征',
  instance: 1,
  status: 'submitted',
  fromVersionNo: 1,
  toVersionNo: 2,
  locked: false,
  lost: [],
  recalculated: [],
  ...over,
});

describe('RecordMigrationDialog', () => {
  it('should show what cannot be carried, ask a reason, and move lossy records only when accepted', async () => {
    setToken('tok');
    const applied: unknown[] = [];
    let remaining = 1;
    server.use(
      http.post(apiUrl('/form-record/migration/preview'), () =>
        ok({
          total: 2,
          lossy: 1,
          locked: 0,
          items: [
            item({
              recordId: 'r2',
              patientNo: 'C01-0002',
              lost: [{ path: 'note', label: '备注', value: '门诊复查', reason: '新版本中已没有该字段' }],
            }),
            item({ recalculated: [{ path: 'bmi', label: 'BMI', before: '25.1', after: '25.09' }] }),
          ],
        }),
      ),
      http.post(apiUrl('/form-record/migration/apply'), async ({ request }) => {
        applied.push(await request.json());
        const step = { migrated: 1, skipped: 0, remaining: remaining > 0 ? 1 : 0 };
        remaining -= 1;
        return ok(step);
      }),
    );
    const onDone = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<RecordMigrationDialog selection={{}} title="数据迁移" onClose={() => {}} onDone={onDone} />);
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('备注：门诊复查 — 新版本中已没有该字段', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('BMI：25.1 → 25.09（按新公式计算）')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: '开始迁移' }));
    expect(await within(dialog).findByText('请填写迁移原因')).toBeInTheDocument();
    expect(applied).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('迁移原因'), { target: { value: '启用第2版' } });
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: '开始迁移' }));
    expect(await within(dialog).findByText('迁移完成', {}, { timeout: 10_000 })).toBeInTheDocument();
    // batches until nothing remains
    expect(applied).toEqual([
      { reason: '启用第2版', acceptLoss: true, limit: 200 },
      { reason: '启用第2版', acceptLoss: true, limit: 200 },
    ]);
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(2));
  });

  it('should say so when every record is already on the newest version', async () => {
    setToken('tok');
    server.use(
      http.post(apiUrl('/form-record/migration/preview'), () => ok({ total: 0, lossy: 0, locked: 0, items: [] })),
    );
    renderWithProviders(
      <RecordMigrationDialog selection={{ patientId: 'p1' }} title="升级" onClose={() => {}} onDone={() => {}} />,
    );
    expect(await screen.findByText('所有记录都已是最新版本，无需迁移', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '开始迁移' })).toBeDisabled();
  });
});
