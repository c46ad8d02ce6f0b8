/** Chinese names of request fields, used to prefix validation messages ('用户名：请输入用户名'). */
export const FIELD_LABELS: Record<string, string> = {
  loginType: '登录方式',
  username: '用户名',
  password: '密码',
  captchaKey: '验证码标识',
  captchaCode: '验证码',
  phone: '手机号',
  smsCode: '短信验证码',
  key: '二维码标识',
  groupCode: '菜单分组',
  tenantCode: '租户编码',
  projectId: '项目',
  keyword: '关键字',
  scope: '范围',
  id: '编号',
  name: '姓名',
  avatar: '头像',
  newPassword: '新密码',
  purpose: '用途',
  access_token: '访问令牌',
  code: '编码',
  diseaseArea: '疾病领域',
  description: '描述',
  status: '状态',
  parentId: '上级项目',
  message: '申请说明',
  roleId: '角色',
  centerId: '中心',
  reason: '原因',
  organisationId: '所属机构',
  leadUserId: '负责人',
  permissions: '权限',
  departmentName: '科室',
  userId: '用户',
  current: '页码',
  size: '每页条数',
  pageKey: '页面',
  pageSize: '每页条数',
  width: '列宽',
  sortField: '排序字段',
  sortOrder: '排序方向',
  fieldKey: '字段',
  op: '筛选条件',
  birthDate: '出生日期',
  enrolDate: '入组日期',
  enrolDateFrom: '入组日期（起）',
  enrolDateTo: '入组日期（止）',
  deathDate: '死亡日期',
  startDate: '首次随访日期',
  fixedDate: '随访日期',
  dueFrom: '应随访日期（起）',
  dueTo: '应随访日期（止）',
  contactedAt: '联系时间',
  from: '开始时间',
  to: '结束时间',
  instance: '实例序号',
  rowVersion: '数据版本',
  sinceRowVersion: '数据版本',
  revision: '数据库版本',
  anchorId: '分页锚点',
  sort: '排序',
  level: '层级',
  everyMonths: '间隔月数',
  times: '随访次数',
  windowBefore: '窗口期（前）',
  windowAfter: '窗口期（后）',
  offset: '时间间隔',
  remindDaysBefore: '提醒天数',
  // a name that means something else inside a list: `<list>.<name>` (looked up first)
  'columns.key': '列',
  'columns.visible': '是否显示',
  'fieldFilters.value': '筛选值',
};

export function labelOf(path: readonly PropertyKey[]): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const part = path[i];
    if (typeof part !== 'string') continue;
    const list = path.slice(0, i).findLast((p) => typeof p === 'string' && !/^\d+$/.test(p));
    const qualified = typeof list === 'string' ? FIELD_LABELS[`${list}.${part}`] : undefined;
    if (qualified) return qualified;
    if (FIELD_LABELS[part]) return FIELD_LABELS[part];
  }
  const last = path.findLast((p) => typeof p === 'string');
  return typeof last === 'string' ? last : '请求参数';
}
