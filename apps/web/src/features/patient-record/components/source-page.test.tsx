import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RecordHistoryResponse } from '@registry/shared/contracts/form-record';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import {
  buildHistory,
  buildPatient,
  buildPublished,
  buildQuery,
  buildVersion,
  PROJECT,
  VITALS_ID,
} from '../test-factories';
import { SourcePage, sdvState } from './source-page';

const verifiedMark = { verifiedByName: '赵监查', verifiedAt: '2026-03-03T02:00:00.000Z' };

function serve(history: () => RecordHistoryResponse, permissions: string[]) {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], permissions);
  useProjectStore.getState().selectProject(PROJECT);
  const calls = {
    sdv: [] as unknown[],
    answers: [] as unknown[],
    raised: [] as unknown[],
    paths: [] as (string | null)[],
  };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/patient-info/:id'), () => ok(buildPatient())),
    http.get(apiUrl('/form-definition/published'), () => ok(buildPublished())),
    http.get(apiUrl('/form-record/history'), ({ request }) => {
      calls.paths.push(new URL(request.url).searchParams.get('path'));
      return ok(history());
    }),
    http.post(apiUrl('/form-record/sdv'), async ({ request }) => {
      calls.sdv.push(await request.json());
      return ok({ verified: 1 });
    }),
    http.post(apiUrl('/form-record/query/answer'), async ({ request }) => {
      calls.answers.push(await request.json());
      return ok(buildQuery({ status: 'answered', answer: '已核对，录入有误' }));
    }),
    http.post(apiUrl('/form-record/query'), async ({ request }) => {
      calls.raised.push(await request.json());
      return ok(buildQuery());
    }),
  );
  return calls;
}

function renderSource(at: string) {
  const user = userEvent.setup({ delay: null });
  return { user, ...renderRoute(<SourcePage />, { path: '/patient/source', at }) };
}

describe('sdvState', () => {
  it('should be verified when the latest version carries the mark and stale when only an earlier one does', () => {
    const marked = buildVersion({ sdv: verifiedMark });
    const plain = buildVersion();
    expect(sdvState([marked, plain])).toBe('verified');
    expect(sdvState([plain, marked])).toBe('stale');
    expect(sdvState([plain])).toBeNull();
    expect(sdvState([])).toBeNull();
  });
});

describe('SourcePage', () => {
  it('should list every version newest first with who, when, reason and source, and show a changed value as stale', async () => {
    serve(
      () =>
        buildHistory({
          versions: [
            buildVersion({ value: 68.5, actorName: '李护士', reason: '录入错误更正', at: '2026-03-04T02:00:00.000Z' }),
            buildVersion({
              value: 86.5,
              actorName: '王医生',
              source: 'import',
              sourceRef: { batchId: 'b-1', fileName: '基线.xlsx', row: 7 },
              at: '2026-03-02T02:00:00.000Z',
              sdv: verifiedMark,
            }),
          ],
        }),
      ['patient.list'],
    );
    renderSource(`/patient/source?recordId=${VITALS_ID}&path=weight`);
    const versions = await screen.findAllByTestId('source-version', {}, { timeout: 20_000 });
    expect(versions).toHaveLength(2);
    expect(versions[0]).toHaveTextContent('68.5 kg');
    expect(versions[0]).toHaveTextContent('当前值');
    expect(versions[0]).toHaveTextContent('李护士');
    expect(versions[0]).toHaveTextContent('手工录入');
    expect(versions[0]).toHaveTextContent('修改原因：录入错误更正');
    expect(versions[1]).toHaveTextContent('86.5 kg');
    expect(versions[1]).toHaveTextContent('Excel导入（文件「基线.xlsx」，第 7 行）');
    expect(versions[1]).toHaveTextContent('已核查 赵监查');
    expect(screen.getByText('核查后已修改，需重新核查')).toBeInTheDocument();
    expect(screen.getByText('该数据在核查后被修改，原核查已失效，需要重新核查。')).toBeInTheDocument();
    // Without patient.sdv there is nothing to verify with.
    expect(screen.queryByRole('button', { name: /核查通过/ })).not.toBeInTheDocument();
  });

  it('should mark the latest version verified when a monitor confirms it', async () => {
    let verified = false;
    const calls = serve(
      () =>
        buildHistory({
          versions: [buildVersion({ value: 68.5, sdv: verified ? verifiedMark : null })],
        }),
      ['patient.list', 'patient.sdv'],
    );
    const { user } = renderSource(`/patient/source?recordId=${VITALS_ID}&path=weight`);
    expect(await screen.findByText('未核查', {}, { timeout: 20_000 })).toBeInTheDocument();
    verified = true;
    await user.click(screen.getByRole('button', { name: /核查通过/ }));
    await waitFor(() => expect(calls.sdv).toEqual([{ recordId: VITALS_ID, paths: ['weight'] }]));
    expect(await screen.findByText(/^已核查（赵监查/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /已核查/ })).toBeDisabled();
    expect(calls.paths.every((p) => p === 'weight')).toBe(true);
  });

  it('should answer an open query for an editor and raise a new one for a monitor', async () => {
    const calls = serve(
      () => buildHistory({ versions: [buildVersion()], queries: [buildQuery()] }),
      ['patient.list', 'patient.edit', 'patient.query'],
    );
    const { user } = renderSource(`/patient/source?recordId=${VITALS_ID}&path=weight`);
    expect(await screen.findByText('与门诊病历记录不一致，请核实', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByText('质疑（1 条待处理）')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /回\s*复/ }));
    await user.type(screen.getByLabelText('回复内容'), '已核对，录入有误{Enter}');
    await waitFor(() => expect(calls.answers).toEqual([{ id: buildQuery().id, answer: '已核对，录入有误' }]));
    await user.type(screen.getByLabelText('质疑内容'), '请补充检查日期');
    await user.click(screen.getByRole('button', { name: /发起质疑/ }));
    await waitFor(() =>
      expect(calls.raised).toEqual([{ recordId: VITALS_ID, path: 'weight', message: '请补充检查日期' }]),
    );
  });

  it('should list the data points of a whole record with their SDV state when no path is given', async () => {
    serve(
      () =>
        buildHistory({
          versions: [
            buildVersion({ path: 'weight', value: 70, sdv: verifiedMark }),
            buildVersion({ path: 'sbp', value: 132 }),
            buildVersion({ path: 'sbp', value: 128, sdv: verifiedMark }),
          ],
          queries: [buildQuery({ path: 'sbp' })],
        }),
      ['patient.list'],
    );
    renderSource(`/patient/source?recordId=${VITALS_ID}`);
    await screen.findByText('70.0 kg', {}, { timeout: 20_000 });
    const rows = [...document.querySelectorAll<HTMLElement>('.ant-table-tbody tr.ant-table-row')];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('体重');
    expect(rows[0]).toHaveTextContent('70.0 kg');
    expect(rows[0]).toHaveTextContent('已核查');
    expect(rows[1]).toHaveTextContent('收缩压');
    expect(rows[1]).toHaveTextContent('132 mmHg');
    expect(rows[1]).toHaveTextContent('核查后已修改');
    expect(rows[1]).toHaveTextContent('1 条待处理');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: '收缩压' })).toHaveAttribute(
      'href',
      `/patient/source?recordId=${VITALS_ID}&path=sbp`,
    );
  });
});
