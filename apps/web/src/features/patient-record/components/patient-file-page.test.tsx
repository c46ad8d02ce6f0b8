import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import {
  buildPatient,
  buildPublished,
  buildRecord,
  buildSummary,
  FOLLOWUP_1_ID,
  FOLLOWUP_2_ID,
  PATIENT_ID,
  PROJECT,
} from '../test-factories';
import { PatientFilePage } from './patient-file-page';

type ChartOption = {
  series: { data: { value: [string, number] }[]; markArea?: { data: [{ yAxis: number }, { yAxis: number }][] } }[];
  yAxis: { name: string };
};

// jsdom has no canvas: the chart component shows the option it was given.
vi.mock('echarts-for-react/esm/core', () => ({
  default: ({ option, 'aria-label': label }: { option: ChartOption; 'aria-label': string }) => (
    <figure aria-label={label}>
      <figcaption>{option.yAxis.name}</figcaption>
      <output data-testid="chart-points">{JSON.stringify(option.series[0]?.data.map((d) => d.value))}</output>
      <output data-testid="chart-band">{JSON.stringify(option.series[0]?.markArea?.data ?? null)}</output>
    </figure>
  ),
}));

const followups: FormRecordVO[] = [
  buildRecord({
    id: FOLLOWUP_2_ID,
    formKey: 'followup_visit',
    instance: 2,
    status: 'submitted',
    data: { fu_date: '2026-06-01', nt_probnp: 860 },
    createdAt: '2026-06-01T03:00:00.000Z',
  }),
  buildRecord({
    id: FOLLOWUP_1_ID,
    formKey: 'followup_visit',
    instance: 1,
    status: 'verified',
    data: { fu_date: '2026-04-01', nt_probnp: 1450 },
    createdAt: '2026-04-02T03:00:00.000Z',
  }),
];

function serve() {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], ['patient.list']);
  useProjectStore.getState().selectProject(PROJECT);
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/patient-info/:id'), () => ok(buildPatient())),
    http.get(apiUrl('/form-definition/published'), () => ok(buildPublished())),
    http.get(apiUrl('/form-record/patient/:id'), () =>
      ok({
        records: [
          buildSummary({ status: 'submitted', submittedAt: '2026-03-02T05:00:00.000Z' }),
          buildSummary({
            id: FOLLOWUP_1_ID,
            formKey: 'followup_visit',
            instance: 1,
            status: 'verified',
            createdAt: '2026-04-02T03:00:00.000Z',
            submittedAt: '2026-04-02T04:00:00.000Z',
            verifiedAt: '2026-04-10T04:00:00.000Z',
          }),
          buildSummary({
            id: FOLLOWUP_2_ID,
            formKey: 'followup_visit',
            instance: 2,
            status: 'submitted',
            createdAt: '2026-06-01T03:00:00.000Z',
            submittedAt: '2026-06-01T04:00:00.000Z',
          }),
        ],
      }),
    ),
    http.get(apiUrl('/form-record/detail'), ({ request }) => {
      const params = new URL(request.url).searchParams;
      const found = followups.find(
        (r) => r.formKey === params.get('formKey') && String(r.instance) === params.get('instance'),
      );
      return ok(found ?? buildRecord());
    }),
  );
}

describe('PatientFilePage', () => {
  it('should tell the patient’s story in date order on the timeline', async () => {
    serve();
    renderRoute(<PatientFilePage />, { path: '/patient/file', at: `/patient/file?id=${PATIENT_ID}` });
    const timeline = await screen.findByRole('list', { name: '患者时间线' }, { timeout: 20_000 });
    await waitFor(() => expect(within(timeline).getAllByRole('listitem').length).toBeGreaterThan(3));
    const texts = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.textContent?.replace(/^[\d\s:-]+/, '') ?? '');
    expect(texts).toEqual([
      '建档登记',
      '入组',
      '录入「生命体征」',
      '提交「生命体征」',
      '录入「随访记录」第 1 次',
      '提交「随访记录」第 1 次',
      '核查「随访记录」第 1 次',
      '录入「随访记录」第 2 次',
      '提交「随访记录」第 2 次',
    ]);
    expect(within(timeline).getByRole('link', { name: '核查「随访记录」第 1 次' })).toHaveAttribute(
      'href',
      `/patient/edit?id=${PATIENT_ID}&form=followup_visit&instance=1`,
    );
    expect(screen.getByText(/上传的医疗文档/)).toBeInTheDocument();
    // without followup.list: no follow-up card and no call for it (MSW would refuse an unhandled one)
    expect(screen.queryByRole('list', { name: '随访时间线' })).not.toBeInTheDocument();
  });

  it('should show the follow-up timeline to a user holding followup.list', async () => {
    serve();
    useMenuStore.getState().setProjectMenu([], ['patient.list', 'followup.list']);
    server.use(
      http.get(apiUrl('/followup/patient/timeline'), ({ request }) => {
        expect(new URL(request.url).searchParams.get('patientId')).toBe(PATIENT_ID);
        return ok([]);
      }),
    );
    renderRoute(<PatientFilePage />, { path: '/patient/file', at: `/patient/file?id=${PATIENT_ID}` });
    expect(await screen.findByText('该患者尚未加入随访计划', {}, { timeout: 20_000 })).toBeInTheDocument();
  });

  it('should chart a repeating form’s numbers by its date field with the normal range as a band', async () => {
    serve();
    const user = userEvent.setup({ delay: null });
    renderRoute(<PatientFilePage />, { path: '/patient/file', at: `/patient/file?id=${PATIENT_ID}` });
    const chart = await screen.findByRole('figure', { name: 'NT-proBNP趋势图' }, { timeout: 20_000 });
    expect(within(chart).getByTestId('chart-points')).toHaveTextContent(
      JSON.stringify([
        ['2026-04-01', 1450],
        ['2026-06-01', 860],
      ]),
    );
    expect(within(chart).getByTestId('chart-band')).toHaveTextContent(JSON.stringify([[{ yAxis: 0 }, { yAxis: 125 }]]));
    expect(within(chart).getByText('pg/mL')).toBeInTheDocument();
    expect(screen.getByText('正常范围：0 ~ 125 pg/mL')).toBeInTheDocument();
    // The numbers behind the chart, readable as a table.
    await user.click(screen.getByRole('button', { name: '查看数据' }));
    const rows = [...document.querySelectorAll<HTMLElement>('.trend-charts .ant-table-tbody tr.ant-table-row')];
    expect(rows.map((r) => r.textContent)).toEqual(['2026-04-01第1次1450', '2026-06-01第2次860']);
  });
});
