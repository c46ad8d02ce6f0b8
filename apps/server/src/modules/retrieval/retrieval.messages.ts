/** What the retrieval calls answer in Chinese. */
export const RETRIEVAL_MESSAGES = {
  noDefinition: '项目尚未发布表单，无法按表单字段检索',
  timeout: (seconds: number) => `检索超过${seconds}秒仍未完成，请增加条件缩小范围后重试`,
} as const;
