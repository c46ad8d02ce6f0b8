import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryListItem, QueryPageRequest } from '@registry/shared/contracts/form-record';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { chooseOption } from '../../../test/select';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { QueryListPage } from './query-list-page';

const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };
const PATIENT_ID = '9a3e6c1b-2f4d-4e8a-b1c7-5d6e7f8a9b01';

function buildQuery(overrides: Partial<QueryListItem> = {}): QueryListItem {
  return {
    id: '1e2d3c4b-5a69-4788-97a6-b5c4d3e2f101',
    recordId: '2f3e4d5c-6b7a-4899-a8b7-c6d5e4f3a202',
    patientId: PATIENT_ID,
    patientNo: 'C01-0001',
    patientName: '王**',
    centerId: 'c-1',
    centerName: '示例第一人民医院',
    formKey: 'vital_signs',
    formTitle: '生命体征',
    instance: 1,
    path: 'weight',
    fieldLabel: '体重',
    origin: 'manual',
    message: '体重与病历不符，请核对',
    status: 'open',
    raisedByName: '监查员',
    raisedAt: '2026-11-20T02:00:00.000Z',
    assignedToName: '录入员',
    answer: null,
    answeredByName: null,
    answeredAt: null,
    closedAt: null,
    daysOpen: 5,
    ...overrides,
  };
}

function serve(pageHandler?: (body: QueryPageRequest) => Promise<unknown>): QueryPageRequest[] {
  setToken('tok');
  useMenuStore.getState().setProjectMenu([], ['patient.list']);
  useProjectStore.getState().selectProject(PROJECT);
  const pages: QueryPageRequest[] = [];
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/project-center/list'), () =>
      ok([
        { id: 'c-1', code: 'C01', name: '示例第一人民医院', isDefault: true },
        { id: 'c-2', code: 'C02', name: '示例第二人民医院', isDefault: false },
      ]),
    ),
    http.get(apiUrl('/form-definition/published'), () =>
      ok({
        own: {
          versionId: 'v-1',
          versionNo: 1,
          projectId: 'p-1',
          definition: {
            categories: [
              {
                key: 'baseline',
                title: '基线',
                forms: [
                  { key: 'vital_signs', title: '生命体征', fields: [] },
                  { key: 'echocardiography', title: '超声心动图', fields: [] },
                ],
              },
            ],
          },
        },
        parent: null,
      }),
    ),
    http.post(apiUrl('/form-record/query/page'), async ({ request }) => {
      const body = (await request.json()) as QueryPageRequest;
      pages.push(body);
      if (pageHandler) return ok(await pageHandler(body));
      const records = [
        buildQuery(),
        buildQuery({ id: 'q-2', patientNo: 'C01-0002', status: 'answered', message: '请补充血压' }),
      ];
      return ok({ records, total: records.length, current: body.current ?? 1, size: body.size ?? 20 });
    }),
  );
  return pages;
}

const last = <T,>(list: T[]) => list[list.length - 1];

function renderPage(at = '/patient/query') {
  const user = userEvent.setup({ delay: null });
  return { user, ...renderRoute(<QueryListPage />, { path: '/patient/query', at }) };
}

describe('QueryListPage', () => {
  it('should say 加载中 rather than 暂无质疑 while the list loads', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    serve(async (body) => {
      await gate;
      return { records: [], total: 0, current: body.current ?? 1, size: body.size ?? 20 };
    });
    renderPage();
    expect(await screen.findByText('加载中…', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.queryByText('暂无质疑')).not.toBeInTheDocument();
    release();
    expect(await screen.findByText('暂无质疑')).toBeInTheDocument();
  });

  it('should list the queries with the form, the field, the masked name and the days open', async () => {
    const pages = serve();
    renderPage();
    const cell = await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(last(pages)).toEqual({ current: 1, size: 20 });
    const row = cell.closest('tr') as HTMLElement;
    expect(within(row).getByText('王**')).toBeInTheDocument();
    expect(within(row).getByText('生命体征')).toBeInTheDocument();
    expect(within(row).getByText('体重')).toBeInTheDocument();
    expect(within(row).getByText('体重与病历不符，请核对')).toBeInTheDocument();
    expect(within(row).getByText('待回复')).toBeInTheDocument();
    expect(within(row).getByText('5 天')).toBeInTheDocument();
    expect(within(screen.getByText('C01-0002').closest('tr') as HTMLElement).getByText('已回复')).toBeInTheDocument();
  });

  it('should send the filters and keep them in the address', async () => {
    const pages = serve();
    const { user, router } = renderPage();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    await chooseOption(user, '状态', '已关闭');
    await waitFor(() => expect(last(pages)).toEqual({ current: 1, size: 20, status: 'closed' }));
    await chooseOption(user, '中心', /C02/);
    await chooseOption(user, '表单', '超声心动图');
    await chooseOption(user, '范围', '指派给我的');
    await waitFor(() =>
      expect(last(pages)).toEqual({
        current: 1,
        size: 20,
        status: 'closed',
        centerId: 'c-2',
        formKey: 'echocardiography',
        mine: 'assigned',
      }),
    );
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      status: 'closed',
      center: 'c-2',
      form: 'echocardiography',
      mine: 'assigned',
    });
  });

  it('should open a filtered address with its filters, days open included', async () => {
    const pages = serve();
    renderPage('/patient/query?status=answered&days=7&mine=raised');
    await waitFor(() =>
      expect(last(pages)).toEqual({ current: 1, size: 20, status: 'answered', minDaysOpen: 7, mine: 'raised' }),
    );
  });

  it('should open the record at the queried field when a row is clicked, with no patient name in the address', async () => {
    serve();
    const { user } = renderPage();
    const cell = await screen.findByText('体重与病历不符，请核对', {}, { timeout: 20_000 });
    await user.click(cell);
    const location = await screen.findByTestId('location');
    expect(location).toHaveTextContent(`/patient/edit?id=${PATIENT_ID}&form=vital_signs&instance=1&field=weight`);
    expect(location.textContent).not.toContain('王');
  });
});
