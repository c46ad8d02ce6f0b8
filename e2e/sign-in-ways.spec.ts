import { expect, test } from '@playwright/test';
import { openUserMenu, signIn, storedToken } from './helpers';

test('should sign a desktop in when a signed-in phone confirms the QR code', async ({ browser }) => {
  const desktop = await browser.newPage();
  const qrResponse = desktop.waitForResponse(
    (r) => r.url().includes('/auth/qr-code?') || r.url().endsWith('/auth/qr-code'),
  );
  await desktop.goto('/login');
  await desktop.getByRole('tab', { name: '扫码登录' }).click();
  const key = (await qrResponse).headers()['x-qr-key'];
  expect(key).toBeTruthy();

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await signIn(phone, 'entry', 'Demo@2026');
  await phone.goto(`/login?qr=${key}`);
  await expect(phone.getByText('确认在电脑端登录？')).toBeVisible();
  await phone.getByRole('button', { name: '确认登录' }).click();
  await expect(phone.getByText('已确认登录')).toBeVisible();

  // The desktop polls the code's state and signs in as the phone's user.
  await expect(desktop).toHaveURL(/\/person\/project$/, { timeout: 15_000 });
  expect((await storedToken(desktop)).local).toBeTruthy();
  await expect(desktop.getByRole('button', { name: '用户菜单' })).toContainText('张录入');
});

test('should let a PERSONAL user upload and save an avatar', async ({ page }) => {
  await signIn(page, 'personal', 'Demo@2026');
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: '头像设置' }).click();
  const dialog = page.getByRole('dialog', { name: '头像设置' });
  await expect(dialog).toBeVisible();
  // A 1×1 PNG.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  await dialog.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  const save = page.waitForResponse((r) => r.url().endsWith('/sys-user') && r.request().method() === 'PUT');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  expect((await save).status()).toBe(200);
  await expect(dialog).toBeHidden();
  const avatar = page.getByRole('button', { name: '用户菜单' }).locator('img');
  await expect(avatar).toHaveAttribute('src', /\/oss\/file\/preview\/.+access_token=/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
});

test('should refuse a file that is not an image in the avatar dialog', async ({ page }) => {
  await signIn(page, 'personal', 'Demo@2026');
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: '头像设置' }).click();
  const dialog = page.getByRole('dialog', { name: '头像设置' });
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText(/图片格式|格式/).last()).toBeVisible();
  await expect(dialog.getByRole('button', { name: /确\s*定/ })).toBeDisabled();
});

test('should let the sys administrator switch tenant and see the hospital projects', async ({ page }) => {
  await signIn(page, 'admin', 'Admin@2026');
  await expect(page.getByText('暂无项目')).toBeVisible();
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: '切换租户' }).click();
  const dialog = page.getByRole('dialog', { name: '切换租户' });
  await dialog.getByLabel('租户编码').fill('h001');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(page.getByText('心力衰竭注册登记研究').first()).toBeVisible();
});

test('should not offer tenant switching or form configuration to a hospital user', async ({ page }) => {
  await signIn(page, 'owner', 'Demo@2026');
  await openUserMenu(page);
  await expect(page.getByRole('menuitem', { name: '修改密码' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '切换租户' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: '配置表单' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: '头像设置' })).toHaveCount(0);
});
