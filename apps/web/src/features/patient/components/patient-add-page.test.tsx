import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PatientCreateRequest } from '@registry/shared/contracts/patient';
import { server } from '../../../test/server';
import { apiUrl, http, HttpResponse, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { useProjectStore } from '../../../lib/stores/project-store';
import { buildCenter, buildPatient, PROJECT } from '../test-factories';
import { PatientAddPage } from './patient-add-page';

const NEW_ID = '5f0c7d2e-8a41-4b7e-9c3a-2d1e0f9b8a71';

function serve(centers = [buildCenter(), buildCenter({ id: 'c-2', code: 'C02', name: '示例第二人民医院' })]) {
  setToken('tok');
  useProjectStore.getState().selectProject(PROJECT);
  const bodies: PatientCreateRequest[] = [];
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({
        id: PROJECT.projectId,
        projectName: PROJECT.projectName,
        projectCode: PROJECT.projectCode,
        subProject: false,
      }),
    ),
    http.get(apiUrl('/project-center/list'), () => ok(centers)),
  );
  return bodies;
}

function renderPage() {
  return renderRoute(<PatientAddPage />, { path: '/patient/add', at: '/patient/add' });
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('PatientAddPage', () => {
  it('should put the cursor in 姓名 and fill birth date and gender from a valid identity number', async () => {
    serve();
    renderPage();
    const name = await screen.findByLabelText('姓名', {}, { timeout: 20_000 });
    await waitFor(() => expect(name).toHaveFocus());
    type('身份证号', '110101199003070038');
    await waitFor(() => expect(screen.getByLabelText('出生日期')).toHaveValue('1990-03-07'));
    expect(screen.getByText('性别', { selector: 'label' }).closest('.ant-form-item')).toHaveTextContent('男');
  });

  it('should show the contract messages when required fields are missing or malformed', async () => {
    serve();
    renderPage();
    await screen.findByLabelText('姓名', {}, { timeout: 20_000 });
    type('手机号', '12345');
    type('住院号', 'ZY 001');
    fireEvent.click(screen.getByText('保存并录入表单'));
    const error = { selector: '.ant-form-item-explain-error' };
    expect(await screen.findByText('请输入患者姓名', error)).toBeInTheDocument();
    expect(screen.getByText('手机号应为11位中国大陆手机号', error)).toBeInTheDocument();
    expect(screen.getByText('住院号只能包含字母、数字、下划线和短横线', error)).toBeInTheDocument();
    expect(screen.getByText('请选择中心', error)).toBeInTheDocument();
  });

  it('should show a duplicate hospital number at its field when the server answers 409', async () => {
    const bodies = serve();
    server.use(
      http.post(apiUrl('/patient-info'), async ({ request }) => {
        bodies.push((await request.json()) as PatientCreateRequest);
        const message = '住院号已存在：与患者 C01-0003 重复';
        return HttpResponse.json(
          { status: 409, message, data: null, requestId: 'r-1', issues: [{ path: 'hospitalNo', message }] },
          { status: 409 },
        );
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderPage();
    await screen.findByLabelText('姓名', {}, { timeout: 20_000 });
    type('姓名', '李四');
    type('住院号', 'ZY0003');
    await user.click(screen.getByRole('combobox', { name: '所属中心' }));
    await user.click(await screen.findByText('C02 示例第二人民医院'));
    fireEvent.click(screen.getByText('保存并录入表单'));
    const message = await screen.findByText('住院号已存在：与患者 C01-0003 重复', {
      selector: '.ant-form-item-explain-error',
    });
    expect(message.closest('.ant-form-item')).toHaveTextContent('住院号');
    expect(bodies).toEqual([{ name: '李四', hospitalNo: 'ZY0003', centerId: 'c-2', status: 'screening' }]);
    await waitFor(() => expect(screen.getByLabelText('住院号')).toHaveFocus());
  });

  it('should fix the center and open the new patient in /patient/edit when saved with Ctrl+Enter', async () => {
    const bodies = serve([buildCenter()]);
    server.use(
      http.post(apiUrl('/patient-info'), async ({ request }) => {
        bodies.push((await request.json()) as PatientCreateRequest);
        return ok(buildPatient({ id: NEW_ID, patientNo: 'C01-0008', name: '王五' }));
      }),
    );
    const { router } = renderPage();
    await screen.findByLabelText('姓名', {}, { timeout: 20_000 });
    await waitFor(() => expect(screen.getByRole('combobox', { name: '所属中心' })).toBeDisabled());
    type('姓名', ' 王五 ');
    fireEvent.keyDown(screen.getByLabelText('姓名'), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${NEW_ID}`));
    expect(router.state.location.pathname).toBe('/patient/edit');
    expect(bodies).toEqual([{ name: '王五', centerId: 'c-1', status: 'screening' }]);
  });
});
