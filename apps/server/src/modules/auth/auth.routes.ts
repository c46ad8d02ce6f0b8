import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { API_BASE } from '@registry/shared/constants';
import {
  CAPTCHA_KEY_HEADER,
  QR_KEY_HEADER,
  QR_LOGIN_QUERY,
  loginOptions,
  loginRequest,
  loginResponse,
  qrConfirmRequest,
  qrStatusQuery,
  qrStatusResponse,
  smsQuery,
  tenantChangeQuery,
} from '@registry/shared/contracts/auth';
import { PERMISSIONS } from '@registry/shared/permissions';
import { requireAuth } from '../../plugins/access';
import { auditContext, NOT_AUDITED } from '../../plugins/audit';
import { binaryResponse } from '../../plugins/binary';
import { nullData, ok, okSchema } from '../../plugins/envelope';
import type { AuthService, ClientInfo } from './auth.service';

export function clientInfo(request: FastifyRequest): ClientInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}

export type LoginRateLimit = { max: number; timeWindow: number };

export function registerAuthRoutes(
  root: FastifyInstance,
  deps: {
    auth: AuthService;
    /** Per IP: sign-in attempts, SMS requests and the QR sign-in's scan and confirm. */
    loginRateLimit: LoginRateLimit;
    /** Per IP: captcha and QR images (each writes a row). */
    imageRateLimit: LoginRateLimit;
  },
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const base = `${API_BASE}/auth`;
  const { auth } = deps;

  app.post(
    `${base}/login`,
    {
      schema: { body: loginRequest, response: okSchema(loginResponse) },
      config: {
        public: true,
        rateLimit: { max: deps.loginRateLimit.max, timeWindow: deps.loginRateLimit.timeWindow },
        audit: ['login', 'login.failed'],
      },
    },
    async (request) => ok(await auth.login(request.body, clientInfo(request), auditContext(request)), '登录成功'),
  );

  app.get(
    `${base}/login-options`,
    { schema: { response: okSchema(loginOptions) }, config: { public: true } },
    async () => ok(auth.loginOptions()),
  );

  app.get(
    `${base}/captcha`,
    { schema: { response: binaryResponse }, config: { public: true, rateLimit: deps.imageRateLimit } },
    async (_request, reply) => {
      const { key, svg } = await auth.createCaptcha();
      return reply
        .header(CAPTCHA_KEY_HEADER, key)
        .header('access-control-expose-headers', CAPTCHA_KEY_HEADER)
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('image/svg+xml')
        .send(Buffer.from(svg, 'utf8'));
    },
  );

  app.get(
    `${base}/sms`,
    {
      schema: { querystring: smsQuery, response: okSchema(nullData) },
      config: { public: true, rateLimit: deps.loginRateLimit },
    },
    async (request) => {
      await auth.sendSmsCode(request.query.phone);
      return ok(null, '验证码已发送，请注意查收');
    },
  );

  app.get(
    `${base}/qr-code`,
    { schema: { response: binaryResponse }, config: { public: true, rateLimit: deps.imageRateLimit } },
    async (request, reply) => {
      const { key } = await auth.createQrLogin();
      const url = `${request.protocol}://${request.host}/login?${QR_LOGIN_QUERY}=${encodeURIComponent(key)}`;
      const png = await QRCode.toBuffer(url, { type: 'png', width: 240, margin: 1, errorCorrectionLevel: 'M' });
      return reply
        .header(QR_KEY_HEADER, key)
        .header('access-control-expose-headers', QR_KEY_HEADER)
        .header('cache-control', 'no-store')
        .type('image/png')
        .send(png);
    },
  );

  app.get(
    `${base}/qr-code/status`,
    { schema: { querystring: qrStatusQuery, response: okSchema(qrStatusResponse) }, config: { public: true } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await auth.qrStatus(request.query.key, clientInfo(request), auditContext(request)));
    },
  );

  app.post(
    `${base}/qr-code/scan`,
    {
      schema: { body: qrConfirmRequest, response: okSchema(nullData) },
      config: { permission: null, rateLimit: deps.loginRateLimit, audit: NOT_AUDITED.qrScan },
    },
    async (request) => {
      await auth.qrScan(request.body.key);
      return ok(null);
    },
  );

  app.post(
    `${base}/qr-code/confirm`,
    {
      schema: { body: qrConfirmRequest, response: okSchema(nullData) },
      config: { permission: null, rateLimit: deps.loginRateLimit, audit: ['login.qr.confirm'] },
    },
    async (request) => {
      await auth.qrConfirm(request.body.key, requireAuth(request), auditContext(request));
      return ok(null, '已确认登录');
    },
  );

  app.post(
    `${base}/logout`,
    {
      schema: { response: okSchema(nullData) },
      config: { permission: null, initialPassword: true, audit: ['logout'] },
    },
    async (request) => {
      await auth.logout(requireAuth(request), auditContext(request));
      return ok(null, '已退出登录');
    },
  );

  app.get(
    `${base}/change`,
    {
      schema: { querystring: tenantChangeQuery, response: okSchema(nullData) },
      config: { permission: PERMISSIONS.sysTenant },
    },
    async (request) => {
      await auth.changeTenant(requireAuth(request), request.query.tenantCode, auditContext(request));
      return ok(null);
    },
  );
}
