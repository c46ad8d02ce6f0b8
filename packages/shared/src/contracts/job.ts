import { z } from 'zod';

/**
 * Background jobs (pg-boss, ADR 0014). `job/detail` and `job/cancel`: the signed-in user's own jobs of the session's
 * tenant (any other id answers 404 like a missing one). `sys-job/*`: the platform administrator (`tenant.manage`)
 * lists every queue's jobs by state, with the error of a failed one, retries a dead job and cancels one.
 */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JOB_STATE_LABELS: Record<JobState, string> = {
  created: '排队中',
  retry: '等待重试',
  active: '运行中',
  completed: '已完成',
  cancelled: '已取消',
  failed: '已失败',
};

/** What the administrator reads for each of the app's queues (the server's JOB_QUEUES; a test keeps them in step). */
export const JOB_QUEUE_LABELS: Record<string, string> = {
  'followup-reminder': '随访提醒',
  'auth.sign-in-purge': '登录记录清理',
  'idempotency-cleanup': '重复提交记录清理',
  'audit-seal': '审计日志封存',
  'sms.dispatch': '短信发送',
  'retrieval.export': '数据导出',
  'retrieval.export-expiry': '过期导出文件清理',
};

/** A queue's label; a dead-letter queue (`<queue>__dead`) is labelled as its queue. */
export function jobQueueLabel(queue: string): string | undefined {
  return JOB_QUEUE_LABELS[queue.replace(/__dead$/, '')];
}

const jobId = z.guid('任务编号无效');

/** `GET job/detail?id=`: what a page polling its job shows. */
export const jobDetailQuery = z.object({ id: jobId });
export const jobStatusVO = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(JOB_STATES),
  /** 0–100 as the worker last reported it (100 once completed). */
  progress: z.number().int(),
  progressMessage: z.string().nullable(),
  /** The last attempt's error message (a failed or retrying job). */
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type JobStatusVO = z.infer<typeof jobStatusVO>;

/** `POST job/cancel` and `POST sys-job/cancel` / `sys-job/retry`. */
export const jobIdRequest = z.object({ id: jobId });

/** `GET sys-job/list`: newest first, at most `limit` (default 100). */
export const jobListQuery = z.object({
  state: z.enum(JOB_STATES, { error: '任务状态无效' }).optional(),
  queue: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, '队列名称无效')
    .optional(),
  limit: z.coerce
    .number({ error: '条数须为数字' })
    .int('条数须为整数')
    .min(1, '条数至少为1')
    .max(500, '条数不能超过500')
    .optional(),
});
export type JobListQuery = z.infer<typeof jobListQuery>;

export const jobAdminVO = z.object({
  id: z.string(),
  queue: z.string(),
  /** A dead-letter queue's copy of a job that failed its last retry. */
  deadLetter: z.boolean(),
  state: z.enum(JOB_STATES),
  retryCount: z.number().int(),
  retryLimit: z.number().int(),
  error: z.string().nullable(),
  tenantId: z.string().nullable(),
  userId: z.string().nullable(),
  progress: z.number().int().nullable(),
  createdAt: z.string(),
  startAfter: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type JobAdminVO = z.infer<typeof jobAdminVO>;
export const jobListResponse = z.object({ items: z.array(jobAdminVO) });
export type JobListResponse = z.infer<typeof jobListResponse>;
