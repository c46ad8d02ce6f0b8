import { CHANGE_REASON } from '@registry/shared/forms/change-reason';

/** The Chinese messages of the CRF record calls (shared by the writer, the service and the tests). */
export const RECORD_MESSAGES = {
  patientNotFound: '患者不存在',
  notFound: '表单记录不存在',
  formNotFound: '表单不存在',
  queryNotFound: '质疑不存在',
  stale: '该表单已被他人修改，请刷新后查看变更',
  locked: '表单已锁定，不能修改',
  frozen: '项目已锁定或归档，数据不能修改',
  /** A change to a submitted record without its reason (the rule: shared forms/change-reason). */
  reasonRequired: CHANGE_REASON.required,
  unlockReasonRequired: '请填写解锁原因',
  deleteReasonRequired: '请填写删除原因',
  notRepeating: '该表单不是重复表单，只有一个实例',
  deleteNotRepeating: '只能删除重复表单的实例',
  invalid: '表单数据有误，请检查后重试',
  verifyNotSubmitted: '只有已提交的表单可以核查',
  lockNotSubmitted: '只有已提交或已核查的表单可以锁定',
  unlockNotLocked: '表单未锁定',
  pathNotFound: '数据项不存在',
  queryClosed: '质疑已关闭',
  autoQueryClosed: '数据已修正，质疑自动关闭',
  instanceRemoved: '表单实例已删除，质疑随之关闭',
  /** The reason of a recalculation written because a form it reads was saved. */
  recalculated: (formTitle: string) => `引用的表单「${formTitle}」已修改，计算字段自动重算`,
} as const;
