import {
  PROJECT_PERMISSION_CODES,
  PROJECT_PERMISSION_LABELS,
  type ProjectPermissionCode,
} from '@registry/shared/permissions';

/** Areas of the role editor's tree, in display order: the area name and the code prefixes it holds. */
const AREAS: readonly { key: string; title: string; prefixes: readonly string[] }[] = [
  { key: 'home', title: '首页', prefixes: ['home'] },
  { key: 'patient', title: '患者管理', prefixes: ['patient'] },
  { key: 'followup', title: '随访', prefixes: ['followup'] },
  { key: 'discern', title: 'AI识别', prefixes: ['discern'] },
  { key: 'retrieval', title: '检索与分析', prefixes: ['retrieval', 'analysis'] },
  { key: 'random', title: '随机分组', prefixes: ['random'] },
  { key: 'multicenter', title: '多中心', prefixes: ['multicenter'] },
  { key: 'config', title: '项目配置', prefixes: ['database', 'permission', 'center', 'audit'] },
];

export type PermissionArea = { key: string; title: string; codes: string[] };

/** The Chinese label of a permission code; an unknown code is shown as it is. */
export function permissionLabel(code: string): string {
  return (PROJECT_PERMISSION_LABELS as Readonly<Record<string, string>>)[code] ?? code;
}

/** Groups `codes` (default: every project permission code) by area; codes of no known area form a last group 其他. */
export function groupPermissions(codes: readonly string[] = PROJECT_PERMISSION_CODES): PermissionArea[] {
  const areaOf = (code: string) => AREAS.find((area) => area.prefixes.includes(code.split('.')[0] ?? ''));
  const groups: PermissionArea[] = AREAS.map((area) => ({
    key: area.key,
    title: area.title,
    codes: codes.filter((code) => areaOf(code) === area),
  }));
  const other = codes.filter((code) => !areaOf(code));
  if (other.length > 0) groups.push({ key: 'other', title: '其他', codes: other });
  return groups.filter((group) => group.codes.length > 0);
}

export type { ProjectPermissionCode };
