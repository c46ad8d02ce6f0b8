import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderRoute } from '../../../test/router';
import { setToken } from '../../../lib/token';
import { JoinProjectDialog } from './join-project-dialog';

describe('JoinProjectDialog', () => {
  it('should search by keyword and send the join request with its message when 申请加入 is submitted', async () => {
    setToken('tok');
    const searches: unknown[] = [];
    const requests: unknown[] = [];
    server.use(
      http.post(apiUrl('/web-project/search4join'), async ({ request }) => {
        searches.push(await request.json());
        return ok([
          {
            id: 'p-7',
            projectCode: 'HF-REG',
            projectName: '心力衰竭注册登记研究',
            diseaseArea: '心血管',
            status: 'active',
            ownerName: '王主任',
            pending: false,
          },
          {
            id: 'p-8',
            projectCode: 'HF-OLD',
            projectName: '心衰既往队列',
            diseaseArea: null,
            status: 'active',
            ownerName: '王主任',
            pending: true,
          },
        ]);
      }),
      http.post(apiUrl('/web-project/join-request'), async ({ request }) => {
        requests.push(await request.json());
        return ok(null);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderRoute(<JoinProjectDialog open onClose={() => undefined} />, {
      path: '/person/project',
      at: '/person/project',
    });
    const search = await screen.findByLabelText('搜索可加入的项目');
    fireEvent.change(search, { target: { value: '心衰' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await user.click(await screen.findByRole('button', { name: '申请加入 心力衰竭注册登记研究' }));
    expect(searches).toEqual([{ keyword: '心衰' }]);
    // A project already asked for offers no second request.
    expect(screen.getByText('已申请，待审核')).toBeInTheDocument();
    const dialog = (await screen.findByText('申请加入项目', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('申请说明（选填）'), { target: { value: '负责本院病例录入' } });
    await user.click(within(dialog).getByRole('button', { name: /提交申请/ }));
    await waitFor(() => expect(requests).toEqual([{ projectId: 'p-7', message: '负责本院病例录入' }]));
  });
});
