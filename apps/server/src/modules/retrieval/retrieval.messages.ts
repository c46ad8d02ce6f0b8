/** What the retrieval calls answer in Chinese. */
export const RETRIEVAL_MESSAGES = {
  noDefinition: '项目尚未发布表单，无法按表单字段检索',
  timeout: (seconds: number) => `检索超过${seconds}秒仍未完成，请增加条件缩小范围后重试`,
  queryNotFound: '检索不存在',
  notOwner: '只有创建者可以修改或删除此检索，可以复制一份后修改',
  nameTaken: (name: string) => `已有名为「${name}」的检索`,
  stale: '该检索已被修改，请刷新后重试',
  badSort: '排序字段不正确',
  tableColumn: (column: string | null, table: string) =>
    column === null ? `「${table}」是表格字段，不能作为显示列` : `「${column}」是表格「${table}」的列，不能作为显示列`,
  repeatingColumn: (field: string, form: string) => `「${field}」属于可重复表单「${form}」，不能作为显示列`,
  columnType: (field: string, type: string) => `「${field}」是${type}字段，不能作为显示列`,
  phiSort: (label: string) => `没有查看患者身份信息的权限，不能按「${label}」排序`,
} as const;
