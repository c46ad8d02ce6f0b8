import { expect, test, type Page } from '@playwright/test';
import { chooseOption, signIn, signOut } from './helpers';

const PROJECT = '急性心肌梗死登记研究';
const SUB_PROJECT = 'STEMI亚组';
const CENTER = '示例第三人民医院中心';

async function enterProject(page: Page, name: string): Promise<void> {
  await page.goto('/person/project');
  await page.getByRole('button', { name: `进入项目 ${name}` }).click();
  await expect(page).toHaveURL(/\/home$/);
}

test('should run a study organisation: project, sub-project, center, a data-entry member who sees only what the role allows', async ({
  page,
}) => {
  await signIn(page, 'owner', 'Demo@2026');

  // A new project.
  await page.goto('/person/project-manage');
  await page.getByRole('button', { name: '新建项目' }).click();
  let dialog = page.getByRole('dialog', { name: '新建项目' });
  await dialog.getByLabel('项目名称').fill(PROJECT);
  await dialog.getByLabel('项目编号').fill('AMI-REG');
  await dialog.getByLabel('疾病领域').fill('急性心肌梗死');
  await chooseOption(page, dialog, '状态', '进行中');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: PROJECT, exact: true })).toBeVisible();

  // A sub-project of it.
  await page.goto('/person/sub-project-manage');
  await chooseOption(page, page.locator('main'), '上级项目', `${PROJECT}（AMI-REG）`);
  await page.getByRole('button', { name: '新建子项目' }).click();
  dialog = page.getByRole('dialog', { name: '新建子项目' });
  await dialog.getByLabel('子项目名称').fill(SUB_PROJECT);
  await dialog.getByLabel('子项目编号').fill('AMI-REG-STEMI');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: SUB_PROJECT, exact: true })).toBeVisible();

  // A center at another hospital, added to the organisation directory on the way.
  await enterProject(page, PROJECT);
  await page.goto('/manage/sub-center');
  await page.getByRole('button', { name: '新增分中心' }).click();
  dialog = page.getByRole('dialog', { name: '新增分中心' });
  await dialog.getByLabel('中心编号').fill('C03');
  await dialog.getByLabel('中心名称').fill(CENTER);
  await dialog.getByLabel('所属机构', { exact: true }).click();
  await page.getByLabel('新机构名称').fill('示例第三人民医院');
  await page.getByRole('button', { name: '新增机构' }).click();
  await chooseOption(page, dialog, '所属机构', '示例第三人民医院');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: CENTER, exact: true })).toBeVisible();

  // A new account with the data-entry role at that center.
  await page.goto('/manage/permissions');
  await page.getByRole('button', { name: '添加成员' }).click();
  dialog = page.getByRole('dialog', { name: '添加成员' });
  await dialog.getByText('新建账号').click();
  await dialog.getByLabel('用户名').fill('crc03');
  await dialog.getByLabel('姓名').fill('赵协调');
  await dialog.getByLabel('初始密码').fill('Zhao-first-2026');
  await chooseOption(page, dialog, '角色', '数据录入员');
  await chooseOption(page, dialog, '中心', CENTER);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  const created = page.getByRole('dialog', { name: '账号已创建' });
  await expect(created).toContainText('Zhao-first-2026');
  await created.getByRole('button', { name: '我已保存密码' }).click();
  await expect(page.getByRole('cell', { name: '赵协调', exact: true })).toBeVisible();
  await signOut(page);

  // The member signs in, must set a password, and then sees the project with the data-entry menu only.
  await signIn(page, 'crc03', 'Zhao-first-2026');
  dialog = page.getByRole('dialog', { name: '设置密码' });
  await dialog.getByLabel('新密码').fill('Zhao-chosen-2027');
  await dialog.getByLabel('确认密码').fill('Zhao-chosen-2027');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'crc03', 'Zhao-chosen-2027');
  await expect(page.getByRole('button', { name: `进入项目 ${PROJECT}` })).toBeVisible();
  await expect(page.getByRole('button', { name: '进入项目 心力衰竭注册登记研究' })).toHaveCount(0);
  await enterProject(page, PROJECT);
  const menu = page.getByRole('menu', { name: '导航菜单' });
  await expect(menu.getByText('首页')).toBeVisible();
  await expect(menu.getByText('患者管理')).toBeVisible();
  await expect(menu.getByText('AI识别')).toBeVisible();
  for (const hidden of ['数据检索', '统计分析', '随访管理', '多中心'])
    await expect(menu.getByText(hidden)).toHaveCount(0);

  // Pages the role may not open say so.
  await page.goto('/manage/permissions');
  await expect(page.getByText('无权限访问该页面')).toBeVisible();
  await expect(page.getByRole('button', { name: '添加成员' })).toHaveCount(0);
  await page.goto('/manage/sub-center');
  await expect(page.getByText('无权限访问该页面')).toBeVisible();
});

test('should let the owner approve a join request, after which the requester can enter the project', async ({
  page,
}) => {
  // The demo data has a pending request from `stat` to 心力衰竭注册登记研究.
  await signIn(page, 'stat', 'Demo@2026');
  await expect(page.getByRole('button', { name: '进入项目 心力衰竭注册登记研究' })).toHaveCount(0);
  await signOut(page);

  await signIn(page, 'owner', 'Demo@2026');
  await page.goto('/person/project-manage?tab=join');
  await page.getByRole('tab', { name: /加入申请/ }).click();
  await page
    .getByRole('button', { name: /^同意 / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: '同意加入申请' });
  await chooseOption(page, dialog, '角色', '统计师');
  await dialog.getByRole('button', { name: /^同\s*意$/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('已同意').first()).toBeVisible();
  await signOut(page);

  await signIn(page, 'stat', 'Demo@2026');
  await enterProject(page, '心力衰竭注册登记研究');
  const menu = page.getByRole('menu', { name: '导航菜单' });
  await expect(menu.getByText('统计分析')).toBeVisible();
  await expect(menu.getByText('患者管理')).toHaveCount(0);
});
