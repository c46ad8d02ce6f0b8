/** Constants fixed by the customer's specification (seed-spec.md §2, §5, §7, §9). Change none of them. */

export const API_BASE = '/api/cmdb-template';
export const APP_CODE = 'WEB';
export const APP_CODE_HEADER = 'X-App-Code';
export const ACCESS_TOKEN_QUERY = 'access_token';
export const VERSION_FILE = '/version.json';
/**
 * The query parameter of the QR sign-in URL `<origin>/login?qr=<key>` (see contracts/auth.ts). Here rather than in the
 * contract so that /login reads it without loading zod (so are the two headers below).
 */
export const QR_LOGIN_QUERY = 'qr';
/** Response headers of `GET auth/captcha` and `GET auth/qr-code` with the key of the image (contracts/auth.ts). */
export const CAPTCHA_KEY_HEADER = 'x-captcha-key';
export const QR_KEY_HEADER = 'x-qr-key';

/** Local-storage (and, for the token, session-storage) keys of §9. */
export const STORAGE_KEYS = {
  token: 'assets-token-web',
  menu: 'web-menu',
  menuPerson: 'web-menu-person',
  permissions: 'web-permissions',
  projectCode: 'projectCode',
  projectId: 'projectId',
  projectName: 'projectName',
  subProject: 'subProject',
  departmentName: 'departmentName',
  hospitalName: 'hospitalName',
  isCollapse: 'isCollapse',
  version: 'version',
} as const;

export const LAYOUT = {
  siderWidth: 240,
  headerHeight: 48,
  avatarSize: 32,
  passwordDialogWidth: 500,
  avatarDialogWidth: 400,
} as const;

export const TOAST = {
  durationMs: 3000,
  offset: 16,
} as const;

/** Request timeout default: none (0); a timed-out request is retried once. */
export const REQUEST_TIMEOUT_MS = 0;
export const REQUEST_TIMEOUT_RETRIES = 1;

export const RICH_TEXT_THROTTLE_MS = 300;

/** Menu group codes for `auth/menu?groupCode=`: the personal layout fetches `index`, the main layout `project`. */
export const MENU_GROUPS = {
  person: 'index',
  project: 'project',
} as const;

export const SYS_TENANT_CODE = 'sys';

export const TENANT_TYPES = ['SYSTEM', 'HOSPITAL', 'PERSONAL'] as const;
export type TenantType = (typeof TENANT_TYPES)[number];

/** Accepted image extensions (§5), compared case-insensitively. */
export const IMAGE_EXTENSIONS = ['png', 'jpeg', 'gif', 'bmp', 'svg', 'webp', 'jpg'] as const;

/** User-visible Chinese messages fixed by the specification. */
export const MESSAGES = {
  oldPasswordRequired: '请输入原密码',
  newPasswordRequired: '请输入新密码',
  confirmPasswordRequired: '请再次输入新密码',
  passwordsDiffer: '两次密码不一致',
  setPasswordTitle: '设置密码',
  changePasswordTitle: '修改密码',
  passwordSetSuccess: '密码设置成功，请重新登录',
  passwordChangeSuccess: '密码修改成功，请重新登录',
  operationSucceeded: '操作成功',
} as const;

/** The upload failure message used when the server gave none (§8). */
export function uploadFailureMessage(method: string, url: string, status: number | string): string {
  return `fail to ${method} ${url} ${status}`;
}
