import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PageConfig } from '@registry/shared/contracts/page-config';
import type { ImportReport } from '@registry/shared/contracts/patient-import';
import type { PatientListItem, PatientPageRequest } from '@registry/shared/contracts/patient';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { chooseOption } from '../../../test/select';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { clearPrivateQuery } from '../hooks/use-private-query';
import {
  buildCellError,
  buildCenter,
  buildImportReport,
  buildListItem,
  buildPublished,
  PROJECT,
} from '../test-factories';
import { PatientListPage } from './patient-list-page';

const ALL = ['patient.list', 'patient.add', 'patient.edit', 'patient.delete', 'patient.pii'];

const ROWS: PatientListItem[] = [
  buildListItem({}, { weight: 72.5, nyha: '3', visit_date: '2026-10-08', diagnosis: 'UNK' }),
  buildListItem(
    {
      id: '2b6f3c1d-7e8a-4b9c-8d0e-1f2a3b4c5d6e',
      patientNo: 'C02-0002',
      name: '李四',
      centerId: 'c-2',
      centerCode: 'C02',
      centerName: '示例第二人民医院',
      hospitalNo: 'ZY20260002',
    },
    { weight: 58, nyha: '1', diagnosis: '扩张型心肌病' },
  ),
];

type Served = {
  pages: PatientPageRequest[];
  saved: PageConfig[];
  resets: number;
  deletes: { params: URLSearchParams; body: { reason?: string } }[];
};

function serve({
  permissions = ALL,
  config = null,
  rows = ROWS,
  total = rows.length,
  totalExact = true,
}: {
  permissions?: string[];
  config?: PageConfig | null;
  rows?: PatientListItem[];
  total?: number;
  totalExact?: boolean;
} = {}): Served {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], permissions);
  useProjectStore.getState().selectProject(PROJECT);
  const served: Served = { pages: [], saved: [], resets: 0, deletes: [] };
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({
        id: PROJECT.projectId,
        projectName: PROJECT.projectName,
        projectCode: PROJECT.projectCode,
        subProject: false,
      }),
    ),
    http.get(apiUrl('/project-center/list'), () =>
      ok([buildCenter(), buildCenter({ id: 'c-2', code: 'C02', name: '示例第二人民医院', isDefault: false })]),
    ),
    http.get(apiUrl('/form-definition/published'), () => ok(buildPublished())),
    http.get(apiUrl('/page-config-custom'), () => ok({ pageKey: 'patient-list', config })),
    http.post(apiUrl('/page-config-custom'), async ({ request }) => {
      served.saved.push(((await request.json()) as { config: PageConfig }).config);
      return ok(null);
    }),
    http.delete(apiUrl('/page-config-custom'), () => {
      served.resets += 1;
      return ok(null);
    }),
    http.post(apiUrl('/patient-info/page'), async ({ request }) => {
      const body = (await request.json()) as PatientPageRequest;
      served.pages.push(body);
      return ok({
        records: rows,
        total,
        totalExact,
        nextCursor: null,
        current: body.current ?? 1,
        size: body.size ?? 20,
      });
    }),
    http.delete(apiUrl('/patient-info'), async ({ request }) => {
      const params = new URL(request.url).searchParams;
      served.deletes.push({ params, body: (await request.json()) as { reason?: string } });
      return ok({ deleted: (params.get('ids') ?? '').split(',').length });
    }),
  );
  return served;
}

function renderList(at = '/patient/list') {
  return renderRoute(<PatientListPage />, { path: '/patient/list', at });
}

const bar = () => document.querySelector('.patient-filters') as HTMLElement;
const lastPage = (served: Served) => served.pages[served.pages.length - 1];
const headerTitle = (text: string) =>
  screen.getByText(text, { selector: '.ant-table-thead th, .ant-table-thead th *' });

afterEach(() => clearPrivateQuery());

describe('PatientListPage', () => {
  it('should show the list-flagged CRF fields as columns with values formatted by type', async () => {
    serve();
    renderList();
    expect(await screen.findByText('C01-0001', {}, { timeout: 20_000 })).toBeInTheDocument();
    for (const title of ['体重', 'NYHA分级', '就诊日期', '主要诊断']) expect(headerTitle(title)).toBeInTheDocument();
    expect(screen.queryByText('身高', { selector: '.ant-table-thead *' })).not.toBeInTheDocument();
    expect(screen.getByText('72.5 kg')).toBeInTheDocument();
    expect(screen.getByText('58.0 kg')).toBeInTheDocument();
    expect(screen.getByText('III级')).toBeInTheDocument();
    expect(screen.getByText('不详')).toBeInTheDocument();
    expect(screen.getByText('C01-0001').closest('a')).toHaveAttribute('href', `/patient/edit?id=${ROWS[0]?.id}`);
    expect(screen.getAllByText('档案')[0]?.closest('a')).toHaveAttribute('href', `/patient/file?id=${ROWS[0]?.id}`);
  });

  it('should call a total the server estimated an estimate', async () => {
    serve({ total: 312_000, totalExact: false });
    renderList();
    expect(await screen.findByText('约 312000 名患者', {}, { timeout: 20_000 })).toBeInTheDocument();
  });

  it('should page, sort and filter on the server and keep all but identifying filters in the address', async () => {
    const served = serve({ total: 45 });
    const user = userEvent.setup({ delay: null });
    const { router } = renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(lastPage(served)).toEqual({ current: 1, size: 20 });

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lastPage(served)).toEqual({ current: 3, size: 20 }));
    expect(router.state.location.search).toBe('?page=3');

    fireEvent.click(headerTitle('入组日期'));
    await waitFor(() =>
      expect(lastPage(served)).toMatchObject({ current: 1, sortField: 'enrolDate', sortOrder: 'asc' }),
    );
    fireEvent.click(headerTitle('体重'));
    await waitFor(() => expect(lastPage(served)).toMatchObject({ sortField: 'field:weight', sortOrder: 'asc' }));

    await user.click(screen.getByText('表单字段筛选'));
    fireEvent.change(await screen.findByLabelText('体重 最小值'), { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText('主要诊断 包含'), { target: { value: '心肌病' } });
    fireEvent.change(within(bar()).getByLabelText('关键字'), { target: { value: '张三' } });
    fireEvent.change(within(bar()).getByLabelText('身份证号'), { target: { value: '110101196805120013' } });
    fireEvent.change(within(bar()).getByLabelText('住院号'), { target: { value: 'ZY2026' } });
    await user.type(within(bar()).getByLabelText('住院号'), '{Enter}');
    await waitFor(() =>
      expect(lastPage(served)).toEqual({
        current: 1,
        size: 20,
        keyword: '张三',
        hospitalNo: 'ZY2026',
        idNumber: '110101196805120013',
        sortField: 'field:weight',
        sortOrder: 'asc',
        fieldFilters: [
          { fieldKey: 'weight', op: 'gte', value: 60 },
          { fieldKey: 'diagnosis', op: 'contains', value: '心肌病' },
        ],
      }),
    );
    const search = decodeURIComponent(router.state.location.search);
    expect(search).toBe('?sort=field:weight&order=asc&f.weight.gte=60&f.diagnosis.contains=心肌病');
    expect(search).not.toMatch(/张三|110101|ZY2026/);
  });

  it('should restore page and filters from the address when the list is opened again', async () => {
    const served = serve({ total: 45 });
    renderList('/patient/list?page=2&status=enrolled&center=c-2&f.nyha.eq=3&f.weight.lte=90');
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(served.pages[0]).toEqual({
      current: 2,
      size: 20,
      centerId: 'c-2',
      status: 'enrolled',
      fieldFilters: [
        { fieldKey: 'nyha', op: 'eq', value: '3' },
        { fieldKey: 'weight', op: 'lte', value: 90 },
      ],
    });
    // The bar shows them, and the CRF filters are open since some are set.
    expect(screen.getByLabelText('体重 最大值')).toHaveValue('90');
  });

  it('should restore the saved columns and save a change after a pause', async () => {
    const served = serve({
      config: {
        columns: [
          { key: 'patientNo', visible: true },
          { key: 'field:nyha', visible: true, width: 200 },
          { key: 'name', visible: true },
          { key: 'phone', visible: false },
        ],
        pageSize: 50,
      },
    });
    renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(lastPage(served)).toEqual({ current: 1, size: 50 });
    const titles = [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent?.trim() ?? '');
    expect(titles.indexOf('NYHA分级')).toBeLessThan(titles.indexOf('姓名'));
    expect(titles).not.toContain('手机号');
    expect(titles).toContain('身份证号');

    fireEvent.click(screen.getByText('列设置'));
    const drawer = await screen.findByText('已显示', { exact: false });
    const panel = drawer.closest('.ant-drawer-body') as HTMLElement;
    fireEvent.click(within(panel).getByLabelText('显示 身份证号'));
    fireEvent.click(within(panel).getByLabelText('上移 姓名'));
    await waitFor(() => expect(served.saved).toHaveLength(1), { timeout: 5000 });
    const saved = served.saved[0];
    expect(saved?.pageSize).toBe(50);
    expect(saved?.columns.slice(0, 4)).toEqual([
      { key: 'patientNo', visible: true },
      { key: 'name', visible: true },
      { key: 'field:nyha', visible: true, width: 200 },
      { key: 'phone', visible: false },
    ]);
    expect(saved?.columns.find((c) => c.key === 'idNumber')).toEqual({ key: 'idNumber', visible: false });
    // Every column is in the saved layout, the CRF ones too.
    expect(saved?.columns.map((c) => c.key)).toEqual(expect.arrayContaining(['field:weight', 'field:diagnosis']));
    await waitFor(() =>
      expect(screen.queryByText('身份证号', { selector: '.ant-table-thead *' })).not.toBeInTheDocument(),
    );

    // A column border dragged 60 px to the right: one more save with the new width.
    const handle = screen.getByLabelText('调整“姓名”列宽', { selector: '.ant-table-thead *' });
    fireEvent.pointerDown(handle, { clientX: 300, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 330, pointerId: 1 });
    fireEvent.pointerUp(handle, { clientX: 360, pointerId: 1 });
    await waitFor(() => expect(served.saved).toHaveLength(2), { timeout: 5000 });
    expect(served.saved[1]?.columns.find((c) => c.key === 'name')).toEqual({ key: 'name', visible: true, width: 160 });

    fireEvent.click(screen.getByText('恢复默认'));
    fireEvent.click(await screen.findByText('恢 复'));
    await waitFor(() => expect(served.resets).toBe(1));
    await waitFor(() => expect(headerTitle('身份证号')).toBeInTheDocument());
    expect(headerTitle('手机号')).toBeInTheDocument();
  });

  it('should refuse a batch delete without a reason and send the reason with the ids', async () => {
    const served = serve();
    renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    for (const row of ROWS)
      fireEvent.click(document.querySelector(`tr[data-row-key="${row.id}"] .ant-checkbox-input`) as HTMLInputElement);
    expect(await screen.findByText('已选择 2 名患者')).toBeInTheDocument();
    fireEvent.click(screen.getByText('批量删除'));
    // The dialog's module loads on first opening.
    expect(await screen.findByText('批量删除患者（2）', {}, { timeout: 20_000 })).toBeInTheDocument();
    fireEvent.click(screen.getByText('确认删除'));
    expect(await screen.findByText('请填写删除原因', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(served.deletes).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('删除原因'), { target: { value: '重复录入' } });
    fireEvent.click(screen.getByText('确认删除'));
    await waitFor(() => expect(served.deletes).toHaveLength(1));
    expect(served.deletes[0]?.params.get('ids')).toBe(ROWS.map((r) => r.id).join(','));
    // the reason travels in the body, never in the URL (which reaches proxy and server logs)
    expect(served.deletes[0]?.body.reason).toBe('重复录入');
    expect(served.deletes[0]?.params.has('reason')).toBe(false);
    await waitFor(() => expect(screen.queryByText('已选择 2 名患者')).not.toBeInTheDocument());
  });

  it('should filter by 随访状态 with followup.list and keep it in the address', async () => {
    const served = serve({ permissions: [...ALL, 'followup.list'] });
    const user = userEvent.setup({ delay: null });
    const { router } = renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    await chooseOption(user, '随访状态', '有超窗随访');
    await user.click(within(bar()).getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(lastPage(served)).toEqual({ current: 1, size: 20, followupStatus: 'overdue' }));
    expect(router.state.location.search).toBe('?fu=overdue');
  });

  it('should restore 随访状态 from the address', async () => {
    const served = serve({ permissions: [...ALL, 'followup.list'] });
    renderList('/patient/list?fu=lost');
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(served.pages[0]).toEqual({ current: 1, size: 20, followupStatus: 'lost' });
    expect(within(bar()).getByText('失访')).toBeInTheDocument();
  });

  it('should hide add, import, edit, delete and the identity number search without their permissions', async () => {
    serve({
      permissions: ['patient.list'],
      rows: [buildListItem({ masked: true, name: '张*', idNumber: '1101**********0013', phone: '138****0001' })],
    });
    renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    expect(screen.queryByText('新增患者')).not.toBeInTheDocument();
    expect(screen.queryByText('导入')).not.toBeInTheDocument();
    expect(screen.queryByText('编辑')).not.toBeInTheDocument();
    expect(screen.queryByText('删除')).not.toBeInTheDocument();
    expect(within(bar()).queryByLabelText('身份证号')).not.toBeInTheDocument();
    // the hospital number is shown masked: neither a filter, a keyword match nor a sort could reveal it
    expect(within(bar()).queryByLabelText('住院号')).not.toBeInTheDocument();
    expect(within(bar()).getByLabelText('关键字')).toHaveAttribute('placeholder', '患者编号');
    const hospitalHeader = [...document.querySelectorAll('th')].find((th) => th.textContent === '住院号');
    expect(hospitalHeader).toBeDefined();
    expect(hospitalHeader).not.toHaveClass('ant-table-column-has-sorters');
    expect(within(bar()).queryByLabelText('随访状态')).not.toBeInTheDocument();
    expect(document.querySelector('tr[data-row-key] .ant-checkbox-input')).toBeNull();
    expect(screen.getByText('张*')).toHaveAttribute('title', '已脱敏：您没有查看患者身份信息的权限');
    expect(screen.getByText('已脱敏：您没有查看患者身份信息的权限', { exact: false })).toBeInTheDocument();
  });

  it('should list every bad cell of the dry run and allow 确认导入 only for a clean file', async () => {
    serve();
    let report: ImportReport = buildImportReport({
      ok: false,
      errors: [
        buildCellError(),
        buildCellError({
          row: 6,
          column: 'D',
          header: '身份证号',
          field: 'idNumber',
          value: '1101**********001X',
          message: '身份证号格式不正确或校验位错误',
        }),
      ],
    });
    let commits = 0;
    server.use(
      http.post(apiUrl('/patient-import/dry-run'), () => ok(report)),
      http.post(apiUrl('/patient-import/commit'), () => {
        commits += 1;
        return ok({ batchId: 'b-1', rowCount: 3, createdPatients: 2, updatedPatients: 1, valueCount: 27 });
      }),
    );
    renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    fireEvent.click(screen.getByText('导入'));
    // The dialog's module loads on first opening.
    const confirm = (await screen.findByText('确认导入', {}, { timeout: 20_000 })).closest(
      'button',
    ) as HTMLButtonElement;
    expect(confirm).toBeDisabled();
    const input = () => document.querySelector<HTMLInputElement>('.ant-modal input[type=file]') as HTMLInputElement;
    const file = new File(['xlsx'], '患者导入.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input(), { target: { files: [file] } });
    expect(await screen.findByText('发现 2 处问题，文件未导入')).toBeInTheDocument();
    expect(screen.getByText('体重应为数字')).toBeInTheDocument();
    expect(screen.getByText('七十')).toBeInTheDocument();
    expect(screen.getByText('身份证号格式不正确或校验位错误')).toBeInTheDocument();
    expect(confirm).toBeDisabled();

    report = buildImportReport();
    fireEvent.change(input(), { target: { files: [file] } });
    expect(await screen.findByText('检查通过：将导入', { exact: false })).toBeInTheDocument();
    await waitFor(() => expect(confirm).toBeEnabled());
    fireEvent.click(confirm);
    expect(await screen.findByText('导入完成')).toBeInTheDocument();
    expect(commits).toBe(1);
  });

  it('should show the issues of a refused commit', async () => {
    serve();
    server.use(
      http.post(apiUrl('/patient-import/dry-run'), () => ok(buildImportReport())),
      http.post(apiUrl('/patient-import/commit'), () =>
        HttpResponse.json(
          {
            status: 400,
            message: '导入文件有 1 处错误',
            data: null,
            requestId: 'r-9',
            issues: [{ path: '第5行 住院号', message: '住院号已存在：与患者 C01-0003 重复' }],
          },
          { status: 400 },
        ),
      ),
    );
    renderList();
    await screen.findByText('C01-0001', {}, { timeout: 20_000 });
    fireEvent.click(screen.getByText('导入'));
    await screen.findByText('确认导入', {}, { timeout: 20_000 });
    const input = document.querySelector<HTMLInputElement>('.ant-modal input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'a.xlsx')] } });
    await screen.findByText('检查通过：将导入', { exact: false });
    const confirm = screen.getByText('确认导入').closest('button') as HTMLButtonElement;
    await waitFor(() => expect(confirm).toBeEnabled());
    fireEvent.click(confirm);
    expect(await screen.findByText('住院号已存在：与患者 C01-0003 重复')).toBeInTheDocument();
    expect(screen.getByText('导入失败，未写入任何数据：导入文件有 1 处错误')).toBeInTheDocument();
  });
});
