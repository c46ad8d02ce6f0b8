import { z } from 'zod';
import { instantString, querySafeInt } from './fields';
import { pageRequest, page } from './envelope';

/**
 * The audit-trail viewer (permission `audit.view`).
 *
 * `POST audit-event/page` lists the events of the caller's scope, newest first: with a current project, the events of
 * that project; without one (a tenant-level `audit.view`), the acting tenant's events. Filters are optional.
 * Paging is stable under inserts: the first page answers `anchorId` (the newest event id at that moment); send it back
 * with the next pages and events written meanwhile do not shift them.
 *
 * `GET audit-event/options` lists the actors, actions and entity types present in the same scope, for the filters.
 */

/** ISO 8601 instant (`2026-11-22T00:00:00.000Z` or with an offset); the web sends day boundaries in its own zone. */
const instant = instantString('时间格式不正确');

const uuid = z.string().uuid('用户不存在');

export const auditPageRequest = pageRequest
  .extend({
    /** The acting user (a user id). */
    actorId: uuid.optional(),
    /** An action code, e.g. `user.update`. */
    action: z.string().trim().max(100, '操作类型过长').optional(),
    /** An entity type code, e.g. `project`. */
    entityType: z.string().trim().max(100, '对象类型过长').optional(),
    /** The id of the changed entity (exact match). */
    entityId: z.string().trim().max(100, '对象编号过长').optional(),
    /** Events at or after this instant. */
    from: instant.optional(),
    /** Events at or before this instant. */
    to: instant.optional(),
    /** The `anchorId` answered with the first page: only events up to it are listed (stable pages). */
    anchorId: querySafeInt('分页锚点不正确').optional(),
  })
  .default({ current: 1, size: 20 });
export type AuditPageRequest = z.input<typeof auditPageRequest>;

export const auditActor = z.object({ id: z.string(), name: z.string(), username: z.string() });
export type AuditActor = z.infer<typeof auditActor>;

export const auditEventVO = z.object({
  id: z.number().int(),
  /** ISO 8601 (UTC). */
  at: z.string(),
  /** Null for events without a signed-in user (e.g. a failed sign-in) or a user no longer known. */
  actor: auditActor.nullable(),
  action: z.string(),
  /** Chinese label of the action (`修改用户`), the code itself when unknown. */
  actionLabel: z.string(),
  entityType: z.string(),
  /** Chinese label of the entity type (`用户`), the code itself when unknown. */
  entityLabel: z.string(),
  entityId: z.string().nullable(),
  /**
   * What the entity is called now (project, center, user, role, organisation, file name; a member's user name; a
   * patient's number, never the name).
   */
  entityName: z.string().nullable(),
  /**
   * Names of the ids in the old and new values (`projectId`, `userId`, `centerId`, `patientId` …): id → name; and of a
   * form key (`formKey` of a form record's event) → the form's title.
   */
  valueNames: z.record(z.string(), z.string()),
  /**
   * Titles of the form's fields whose keys appear in a form record's `values` (`weight` → 体重; a group's column by
   * its key too), from the definition version the event names: shown instead of the raw keys.
   */
  fieldLabels: z.record(z.string(), z.string()),
  oldValue: z.unknown(),
  newValue: z.unknown(),
  reason: z.string().nullable(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEventVO = z.infer<typeof auditEventVO>;

export const auditPageResponse = page(auditEventVO).extend({
  /** The newest event id the pages are anchored to (null when there is no event). */
  anchorId: z.number().int().nullable(),
});
export type AuditPageResponse = z.infer<typeof auditPageResponse>;

export const auditOption = z.object({ value: z.string(), label: z.string() });
export type AuditOption = z.infer<typeof auditOption>;

export const auditOptionsResponse = z.object({
  actors: z.array(auditActor),
  actions: z.array(auditOption),
  entityTypes: z.array(auditOption),
});
export type AuditOptionsResponse = z.infer<typeof auditOptionsResponse>;

/** Chinese labels of the audit actions written by the server; unknown codes fall back to `auditActionLabel`'s rule. */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  login: '登录',
  'login.failed': '登录失败',
  logout: '退出登录',
  'login.qr.confirm': '扫码确认登录',
  'tenant.switch': '切换租户',
  'support.grant': '授予支持访问',
  'support.revoke': '撤销支持访问',
  'support.access': '支持访问查看',
  'tenant.create': '创建租户',
  'project.enter': '进入项目',
  'project.create': '创建项目',
  'project.update': '修改项目',
  'project.archive': '归档项目',
  'project.restore': '恢复项目',
  'project.status': '修改项目状态',
  'project.delete': '删除项目',
  'project.join.request': '申请加入项目',
  'project.join.approve': '同意加入申请',
  'project.join.refuse': '拒绝加入申请',
  'join-request.create': '申请加入项目',
  'join-request.approve': '同意加入申请',
  'join-request.refuse': '拒绝加入申请',
  'join_request.create': '申请加入项目',
  'join_request.approve': '同意加入申请',
  'join_request.refuse': '拒绝加入申请',
  'user.create': '创建用户',
  'user.update': '修改用户',
  'user.disable': '停用账号',
  'user.enable': '启用账号',
  'user.password.set': '设置密码',
  'user.password.change': '修改密码',
  'user.password.reset': '重置密码',
  'file.upload': '上传文件',
  'center.create': '新增分中心',
  'center.update': '修改分中心',
  'center.delete': '删除分中心',
  'center.close': '关闭分中心',
  'center.reopen': '重新启用分中心',
  'organisation.create': '新增机构',
  'member.create': '添加成员',
  'member.add': '添加成员',
  'member.update': '修改成员',
  'member.remove': '移除成员',
  'member.delete': '移除成员',
  'role.create': '新增角色',
  'role.update': '修改角色',
  'role.delete': '删除角色',
  'patient.create': '新增患者',
  'patient.update': '修改患者',
  'patient.delete': '删除患者',
  'patient.view': '查看患者',
  'patient.pii_read': '查看患者身份信息',
  'patient.export': '导出患者',
  'patient.import': '导入患者',
  // follow-up plans and assignments
  'followup_plan.create': '新增随访计划',
  'followup_plan.update': '修改随访计划',
  'followup_plan.activate': '启用随访计划',
  'followup_plan.apply': '按规则分配随访计划',
  'followup_plan.stop': '停用随访计划',
  'followup_plan.delete': '删除随访计划',
  'followup_assignment.add': '添加随访患者',
  'followup_assignment.remove': '移出随访患者',
  'followup.sync': '生成随访任务',
  'page_config.save': '保存列表布局',
  'page_config.delete': '恢复默认列表布局',
  'form_record.create': '新增表单记录',
  'form_record.update': '修改表单记录',
  'form_record.submit': '提交表单',
  'form_record.verify': '核查表单',
  'form_record.lock': '锁定表单',
  'form_record.unlock': '解锁表单',
  'form_record.delete': '删除表单实例',
  'form_record.sdv': '源数据核查',
  'form_record.pii_read': '查看表单身份信息',
  'form_record.recalculate': '重新计算表单',
  'form_record.patient_sync': '患者信息同步到表单',
  'data_query.create': '发起质疑',
  'data_query.answer': '回复质疑',
  'data_query.close': '关闭质疑',
  'record.update': '修改表单',
  'record.lock': '锁定表单',
  'record.sign': '签名表单',
  'form_definition.save': '保存数据库草稿',
  'form_definition.publish': '发布数据库版本',
  'form_definition.discard': '放弃数据库草稿',
  'form_definition.export': '导出数据库定义',
  // follow-up worklist and record
  'followup_task.assign': '分配随访任务',
  'followup_task.export': '导出随访列表',
  'followup_task.contact': '记录随访联系',
  'followup_task.complete': '完成随访',
  'followup_task.reopen': '重新打开随访',
  'followup_task.lost': '标记随访失访',
  'followup_task.cancel': '取消随访任务',
  'patient.followup_lost': '标记患者失访',
  'patient.death': '登记患者死亡',
  // reminders and notifications
  'followup_task.remind': '发送随访提醒',
  'notification.read': '标记通知已读',
  // background jobs (the owner's and the platform administrator's)
  'job.cancel': '取消后台任务',
  'job.retry': '重试后台任务',
};

/** Chinese labels of the keys of audit values; `auditFieldLabel` labels a dotted path by its segments. */
export const AUDIT_FIELD_LABELS: Readonly<Record<string, string>> = {
  id: 'ID',
  name: '名称',
  code: '编码',
  title: '标题',
  status: '状态',
  state: '状态',
  queue: '任务队列',
  error: '错误',
  reason: '原因',
  note: '说明',
  message: '说明',
  projectId: '项目',
  projectName: '项目名称',
  parentId: '上级项目',
  centerId: '中心',
  organisationId: '机构',
  userId: '用户',
  ownerId: '负责人',
  leadUserId: '中心负责人',
  roleId: '角色',
  patientId: '患者',
  patientNo: '患者编号',
  fileId: '文件',
  formKey: '表单',
  fieldKey: '字段',
  versionNo: '版本号',
  revision: '修订号',
  username: '用户名',
  phone: '手机号',
  email: '邮箱',
  gender: '性别',
  birthDate: '出生日期',
  enrolDate: '入组日期',
  hospitalNo: '住院号',
  idNumber: '身份证号',
  description: '描述',
  permissions: '权限',
  categories: '分类数',
  forms: '表单数',
  fields: '字段数',
  count: '数量',
  total: '总数',
  tenantId: '租户',
  visitName: '访视',
  dueDate: '到期日期',
  outcome: '结果',
  value: '值',
  data: '数据',
  values: '数据',
  isDefault: '默认',
  enabled: '启用',
};

/**
 * A value key's Chinese label (`projectId` → 项目, `values.weight` → 数据.体重 given the event's `fieldLabels`): the
 * segments after `values` are a form's field keys, named by `fieldLabels`; unknown segments stay as they are.
 */
export function auditFieldLabel(path: string, fieldLabels: Readonly<Record<string, string>> = {}): string {
  let inValues = false;
  return path
    .split('.')
    .map((segment) => {
      const label = (inValues ? fieldLabels[segment] : undefined) ?? AUDIT_FIELD_LABELS[segment] ?? segment;
      if (segment === 'values') inValues = true;
      return label;
    })
    .join('.');
}

/** The value keys holding an id, with the entity type whose name the viewer shows for it. */
export const AUDIT_ID_KEYS: Readonly<Record<string, string>> = {
  projectId: 'project',
  parentId: 'project',
  centerId: 'center',
  organisationId: 'organisation',
  userId: 'user',
  ownerId: 'user',
  leadUserId: 'user',
  createdBy: 'user',
  decidedBy: 'user',
  roleId: 'role',
  patientId: 'patient',
  fileId: 'file',
};

/** Chinese labels of the entity types of audit events. */
export const AUDIT_ENTITY_LABELS: Readonly<Record<string, string>> = {
  session: '会话',
  qr_login: '扫码登录',
  tenant: '租户',
  user: '用户',
  project: '项目',
  sub_project: '子项目',
  join_request: '加入申请',
  organisation: '机构',
  center: '分中心',
  member: '项目成员',
  project_member: '项目成员',
  role: '角色',
  file: '文件',
  patient: '患者',
  followup_plan: '随访计划',
  followup_assignment: '随访分配',
  import_batch: '导入批次',
  page_config: '页面布局',
  record: '表单记录',
  form_record: '表单记录',
  data_query: '质疑',
  export: '导出',
  form_definition: '数据库',
  form_draft: '数据库草稿',
  form_version: '数据库版本',
  field_dict: '字典',
  field_dict_option: '字典选项',
  followup_task: '随访任务',
  followup_contact: '随访联系',
  // notifications (followup_task's label comes with the worklist's labels)
  notification: '通知',
  job: '后台任务',
};

const VERB_LABELS: Readonly<Record<string, string>> = {
  create: '新增',
  add: '新增',
  update: '修改',
  delete: '删除',
  remove: '移除',
  view: '查看',
  export: '导出',
  import: '导入',
  lock: '锁定',
  unlock: '解锁',
  sign: '签名',
  archive: '归档',
  approve: '同意',
  refuse: '拒绝',
  disable: '停用',
  enable: '启用',
};

/** The Chinese label of an entity type; the code itself when unknown. */
export function auditEntityLabel(entityType: string): string {
  return AUDIT_ENTITY_LABELS[entityType] ?? entityType;
}

/**
 * The Chinese label of an action: the table above, else "<verb><entity>" for `entity.verb` codes (`center.lock` →
 * 锁定分中心), else the code itself.
 */
export function auditActionLabel(action: string): string {
  const known = AUDIT_ACTION_LABELS[action];
  if (known) return known;
  const dot = action.lastIndexOf('.');
  if (dot > 0) {
    const verb = VERB_LABELS[action.slice(dot + 1)];
    const entity = AUDIT_ENTITY_LABELS[action.slice(0, dot).replace(/-/g, '_')];
    if (verb && entity) return `${verb}${entity}`;
  }
  return action;
}
