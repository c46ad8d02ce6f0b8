import { expect, test } from '@playwright/test';
import { openUserMenu, signIn, storedToken } from './helpers';

test('should validate, change the password, log out, and accept only the new password', async ({ page }) => {
  await signIn(page, 'nurse', 'Demo@2026');
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: '修改密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改密码' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('.ant-modal-content').or(dialog)).toBeVisible();

  // The old password is checked on blur.
  await dialog.getByLabel('原密码').focus();
  await dialog.getByLabel('原密码').blur();
  await expect(dialog.getByText('请输入原密码')).toBeVisible();

  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('请输入新密码')).toBeVisible();
  await expect(dialog.getByText('请再次输入新密码')).toBeVisible();

  await dialog.getByLabel('原密码').fill('Demo@2026');
  await dialog.getByLabel('新密码').fill('Ward-round-2027');
  await dialog.getByLabel('确认密码').fill('Ward-round-2028');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('两次密码不一致')).toBeVisible();

  await dialog.getByLabel('确认密码').fill('Ward-round-2027');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('密码修改成功，请重新登录')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect((await storedToken(page)).local).toBeNull();

  // The old password no longer works; the new one does.
  await page.getByLabel('用户名').fill('nurse');
  await page.getByLabel('密码', { exact: true }).fill('Demo@2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByText('用户名或密码错误')).toBeVisible();
  await signIn(page, 'nurse', 'Ward-round-2027');
  await expect(page).toHaveURL(/\/person\/project$/);
});

test('should ask a user with an initial password to set one, without the old password', async ({ page }) => {
  await signIn(page, 'newdoc', 'Init@2026');
  const dialog = page.getByRole('dialog', { name: '设置密码' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('原密码')).toHaveCount(0);
  await dialog.getByLabel('新密码').fill('First-shift-2027');
  await dialog.getByLabel('确认密码').fill('First-shift-2027');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('密码设置成功，请重新登录')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'newdoc', 'First-shift-2027');
  await expect(page.getByRole('dialog', { name: '设置密码' })).toHaveCount(0);
});
