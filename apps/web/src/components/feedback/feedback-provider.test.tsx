import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithProviders } from '../../test/render';
import { toast } from '../../lib/toast';
import { useFeedback } from './feedback-context';

function Asker() {
  const { modal } = useFeedback();
  const [answer, setAnswer] = useState('未回答');
  const ask = async () => {
    const confirmed = await modal.confirm({ title: '确认删除？', okText: '确认删除', cancelText: '保留数据' });
    setAnswer(confirmed ? '已确认' : '已取消');
  };
  return (
    <>
      <button type="button" onClick={() => void ask()}>
        提问
      </button>
      <button
        type="button"
        onClick={() => {
          const instance = modal.info({ title: '第一版' });
          instance.update({ title: '第二版' });
        }}
      >
        说明
      </button>
      <button type="button" onClick={() => modal.warning({ title: '不会显示' }).destroy()}>
        撤回
      </button>
      <p>{answer}</p>
    </>
  );
}

describe('FeedbackProvider', () => {
  it('should open a confirm dialog on first use and resolve what the user chose', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Asker />);
    await user.click(screen.getByRole('button', { name: '提问' }));
    await user.click(await screen.findByRole('button', { name: '确认删除' }));
    expect(await screen.findByText('已确认')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '提问' }));
    await user.click(await screen.findByRole('button', { name: '保留数据' }));
    expect(await screen.findByText('已取消')).toBeInTheDocument();
  });

  it('should apply an update and a destroy made before the dialogs were loaded', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Asker />);
    await user.click(screen.getByRole('button', { name: '撤回' }));
    await user.click(screen.getByRole('button', { name: '说明' }));
    expect((await screen.findAllByText('第二版')).length).toBeGreaterThan(0);
    expect(screen.queryByText('第一版')).not.toBeInTheDocument();
    expect(screen.queryByText('不会显示')).not.toBeInTheDocument();
  });

  it('should show toasts through the root message instance', async () => {
    renderWithProviders(<Asker />);
    await waitFor(() => {
      toast.success('保存成功');
      expect(screen.getByText('保存成功')).toBeInTheDocument();
    });
  });
});
