import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';
import { renderWithProviders } from '../../../test/render';
import { AVATAR_TYPE_ERROR, AvatarDialog } from './avatar-dialog';

function fileInput(): HTMLInputElement {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  return input;
}

describe('AvatarDialog', () => {
  it('should refuse the file and upload nothing when its extension is not an image', async () => {
    const uploads = vi.fn();
    server.use(
      http.post(apiUrl('/oss/file/upload-file'), () => {
        uploads();
        return ok(null);
      }),
    );
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<AvatarDialog open userId="u-1" onClose={() => undefined} />);
    await screen.findByRole('dialog', { name: '头像设置' });
    await user.upload(fileInput(), new File(['%PDF'], 'report.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(AVATAR_TYPE_ERROR)).toBeInTheDocument();
    expect(uploads).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /确\s*定/ })).toBeDisabled();
  });

  it('should upload an image and save the user with its preview link when confirmed', async () => {
    let purpose: string | null = null;
    let saved: unknown;
    server.use(
      http.post(apiUrl('/oss/file/upload-file'), ({ request }) => {
        purpose = new URL(request.url).searchParams.get('purpose');
        return ok({
          id: 'f-1',
          name: 'ME.PNG',
          size: 4,
          contentType: 'image/png',
          previewUrl: '/api/cmdb-template/oss/file/f-1/preview',
        });
      }),
      http.put(apiUrl('/sys-user'), async ({ request }) => {
        saved = await request.json();
        return ok(null);
      }),
    );
    const onClose = vi.fn();
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<AvatarDialog open userId="u-1" onClose={onClose} />);
    await screen.findByRole('dialog', { name: '头像设置' });
    await user.upload(fileInput(), new File(['\x89PNG'], 'ME.PNG', { type: 'image/png' }));
    const confirm = screen.getByRole('button', { name: /确\s*定/ });
    await waitFor(() => expect(confirm).toBeEnabled());
    expect(purpose).toBe('avatar');
    await user.click(confirm);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(saved).toEqual({ id: 'u-1', avatar: '/api/cmdb-template/oss/file/f-1/preview' });
    expect(await screen.findByText('头像设置成功')).toBeInTheDocument();
  });
});
