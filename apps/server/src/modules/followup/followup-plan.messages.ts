/** The Chinese messages of follow-up plans and assignments. */
export const PLAN_MESSAGES = {
  notFound: '随访计划不存在',
  nameTaken: '随访计划名称已存在',
  stale: '随访计划已被他人修改，请刷新后重试',
  rescheduleRequired: '请选择是否重新安排未完成的随访任务',
  notActive: '随访计划未启用',
  alreadyActive: '随访计划已启用',
  inUse: '随访计划已生成随访任务，不能删除，请停用',
  stopped: '随访计划已停用',
  patientNotFound: '患者不存在',
  invalid: '随访计划有误，请检查后重试',
  anchorRequired: '相对随访计划请选择基准日期',
  visitsRequired: '请至少添加一次访视',
  offsetRequired: '请输入时间间隔',
  unitRequired: '请选择时间单位',
  fixedDateRequired: '请选择随访日期，或按周期生成访视',
  noDefinition: '项目尚未发布数据库，不能按表单字段设置',
  ownerNotMember: '默认负责人须为项目成员',
  subProjectNotFound: '子项目不存在',
  ruleValuesRequired: '请选择规则取值',
  visitNotFound: '访视不存在',
} as const;
/** Why the tasks of a stopped plan were cancelled. */
export const PLAN_STOPPED_REASON = '随访计划已停用';
