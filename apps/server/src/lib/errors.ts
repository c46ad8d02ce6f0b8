/** A failure whose status and Chinese message are meant for the caller. The one error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Details for the envelope's `issues` (e.g. the problems that block a publish), each with a path. */
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const ERROR_MESSAGES = {
  unauthenticated: '登录已过期，请重新登录',
  forbidden: '无权限执行此操作',
  internal: '服务器内部错误',
  dbUnavailable: '数据库暂时不可用，请稍后重试',
  duplicate: '数据已存在',
  referenced: '关联数据不存在或仍被引用',
  notFound: '资源不存在',
  routeNotFound: '接口不存在',
  tooManyRequests: '请求过于频繁，请稍后再试',
  smsTooFrequent: '发送过于频繁，请稍后再试',
  badRequest: '请求参数错误',
  protoPoisoning: '请求内容包含非法字段',
  missingAppCode: '缺少或错误的应用标识（X-App-Code）',
  badCredentials: '用户名或密码错误',
  badCaptcha: '验证码错误或已过期',
  captchaRequired: '请输入验证码',
  badSmsCode: '短信验证码错误或已过期',
  disabled: '账号已停用',
  userNotFound: '用户不存在',
  tenantNotFound: '租户不存在',
  projectNotFound: '项目不存在',
  noCurrentProject: '请先选择项目',
  fileNotFound: '文件不存在',
  storageUnavailable: '文件存储服务暂时不可用，请稍后重试',
  wrongOldPassword: '原密码错误',
  oldPasswordRequired: '请输入原密码',
  samePassword: '新密码不能与原密码相同',
  unsupportedImage: '不支持的图片格式',
  unsupportedFile: '不支持的文件类型',
  contentMismatch: '文件内容与扩展名不符',
  noFile: '请选择要上传的文件',
  tooManyFiles: '上传文件数量超过限制',
  avatarInvalid: '头像文件不存在或不是图片',
  qrInvalid: '二维码已失效，请刷新后重试',
  loginMethodDisabled: '该登录方式未启用',
  idempotencyKeyInvalid: '请求标识（Idempotency-Key）格式不正确',
  idempotencyKeyReused: '请求标识（Idempotency-Key）已用于另一个不同的请求，请刷新页面后重试',
  idempotencyInProgress: '相同的请求正在处理中，请稍后刷新页面查看结果',
} as const;

/** An IP with too many failed sign-ins waits before its next attempt (no account is locked). */
export function loginThrottledMessage(seconds: number): string {
  return seconds >= 60
    ? `登录失败次数过多，请${Math.ceil(seconds / 60)}分钟后再试`
    : `登录失败次数过多，请${seconds}秒后再试`;
}

export function fileTooLargeMessage(maxBytes: number): string {
  const mb = maxBytes / (1024 * 1024);
  const shown = Number.isInteger(mb) ? String(mb) : mb < 1 ? mb.toFixed(2) : mb.toFixed(1);
  return `文件大小超过限制（最大 ${shown} MB）`;
}

/** The driver's error in `err` or one of its causes (Drizzle wraps the driver's errors): the first with a SQLSTATE. */
function pgErrorOf(err: unknown): { code: string; constraint?: unknown } | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    const e = cur as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof e.code === 'string') return { code: e.code, constraint: e.constraint };
    cur = e.cause;
  }
  return undefined;
}

/**
 * Whether `err` is PostgreSQL's unique violation (23505) of the index or constraint `constraint`: a service's own
 * check passed, and a concurrent request took the value first.
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = pgErrorOf(err);
  return e?.code === '23505' && e.constraint === constraint;
}

/** Whether `err` is PostgreSQL cancelling a statement (57014: its `statement_timeout` ran out). */
export function isQueryCanceled(err: unknown): boolean {
  return pgErrorOf(err)?.code === '57014';
}
