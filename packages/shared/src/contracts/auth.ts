import { z } from 'zod';
import { TENANT_TYPES } from '../constants';
import { MOBILE_PHONE, SMS_CODE } from '../rules';

/** Response header of `GET auth/captcha` and `GET auth/qr-code` naming the one-time key the image stands for. */
export { CAPTCHA_KEY_HEADER, QR_KEY_HEADER } from '../constants';

export const loginRequest = z.discriminatedUnion('loginType', [
  z.object({
    loginType: z.literal('password'),
    username: z.string().trim().min(1, '请输入用户名').max(64, '用户名不能超过64个字符'),
    password: z.string().min(1, '请输入密码').max(128, '密码不能超过128个字符'),
    captchaKey: z.string().max(64).optional(),
    captchaCode: z.string().trim().max(16).optional(),
  }),
  z.object({
    loginType: z.literal('sms'),
    phone: z.string().trim().regex(MOBILE_PHONE.pattern, MOBILE_PHONE.message),
    smsCode: z.string().trim().regex(SMS_CODE.pattern, SMS_CODE.message),
  }),
]);
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  token: z.string(),
  /** ISO time at which the session ends at the latest (absolute lifetime). */
  expiresAt: z.string(),
  initPwd: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const smsQuery = z.object({
  phone: z.string().trim().regex(MOBILE_PHONE.pattern, MOBILE_PHONE.message),
});

export const qrStatusQuery = z.object({ key: z.string().min(1).max(64) });
export const QR_STATES = ['pending', 'scanned', 'confirmed', 'expired'] as const;
export const qrStatusResponse = z.object({
  state: z.enum(QR_STATES),
  /** Present once, when the state first turns to confirmed. */
  token: z.string().optional(),
  expiresAt: z.string().optional(),
  initPwd: z.boolean().optional(),
});
export type QrStatusResponse = z.infer<typeof qrStatusResponse>;
export const qrConfirmRequest = z.object({ key: z.string().min(1).max(64) });

export const tenantChangeQuery = z.object({ tenantCode: z.string().trim().min(1, '请输入租户编码').max(64) });

export const menuQuery = z.object({ groupCode: z.string().trim().min(1, '缺少菜单分组编码').max(32) });

export type MenuItem = {
  id: string;
  type: '1' | '2';
  showFlag: boolean;
  name: string;
  icon: string | null;
  href: string | null;
  children: MenuItem[];
};
export const menuItem: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    type: z.enum(['1', '2']),
    showFlag: z.boolean(),
    name: z.string(),
    icon: z.string().nullable(),
    href: z.string().nullable(),
    children: z.array(menuItem),
  }),
);
export const menuResponse = z.object({ menus: z.array(menuItem), permissions: z.array(z.string()) });
export type MenuResponse = z.infer<typeof menuResponse>;

export const tenantType = z.enum(TENANT_TYPES);

/** `GET auth/login-options` (public): what the sign-in page must ask for. */
export const loginOptions = z.object({ captchaEnabled: z.boolean(), smsEnabled: z.boolean(), qrEnabled: z.boolean() });
export type LoginOptions = z.infer<typeof loginOptions>;

/**
 * QR sign-in: `GET auth/qr-code` returns a PNG whose content is the URL `<origin>/login?qr=<key>` and the key in the
 * `x-qr-key` header. The sign-in page polls `GET auth/qr-code/status?key=`. A signed-in user who opens that URL
 * (on a phone) sees a confirmation on `/login` that calls `POST auth/qr-code/confirm {key}`; opening it marks the
 * code `scanned` (`POST auth/qr-code/scan {key}`).
 */
export { QR_LOGIN_QUERY } from '../constants';
