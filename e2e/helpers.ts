import { expect, type Locator, type Page } from '@playwright/test';

export const TOKEN_KEY = 'assets-token-web';

/** Signs in on /login with the password form (the captcha is off in the e2e server) and waits for the next page. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export async function openUserMenu(page: Page): Promise<void> {
  // The menu of the page before (closed by choosing an item, still fading out) can look open, and a click that lands
  // while the layout changes may hit the header being replaced: wait until no menu shows, open it, and check it opened.
  const logout = page.getByRole('menuitem', { name: '退出登录' });
  await expect(async () => {
    if (await logout.isVisible()) await page.keyboard.press('Escape');
    await expect(logout).toBeHidden({ timeout: 2_000 });
    await page.getByRole('button', { name: '用户菜单' }).click();
    await expect(logout).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

export async function storedToken(page: Page): Promise<{ local: string | null; session: string | null }> {
  return page.evaluate(
    (key) => ({ local: localStorage.getItem(key), session: sessionStorage.getItem(key) }),
    TOKEN_KEY,
  );
}

/** Picks `option` in the antd Select labelled `label` inside `scope` (a dialog or the page). */
export async function chooseOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  const select = scope.getByLabel(label, { exact: true });
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  // A select clicked while its dialog still animates in, or before its options have loaded, may not open or may open
  // empty: open it again until the option can be clicked.
  await expect(async () => {
    if (!(await dropdown.isVisible())) await select.click();
    await dropdown.getByTitle(option, { exact: true }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** Signs out through the header's user menu. */
export async function signOut(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
