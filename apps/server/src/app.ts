import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE } from '@registry/shared/constants';
import type pg from 'pg';
import type { AppConfig } from './config/config';
import { createDb } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { AppError, ERROR_MESSAGES } from './lib/errors';
import { copyHeads, createFileHeadStore, createStorageHeadStore } from './modules/audit/audit-head-store';
import { createAuditSealJob } from './modules/audit/audit-seal.job';
import { createStorage, type ObjectStorage } from './lib/storage';
import { registerAuditRoutes } from './modules/audit/audit.routes';
import { createAuditService } from './modules/audit/audit.service';
import { registerAuthRoutes, type LoginRateLimit } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { svgCaptchaGenerator, type CaptchaGenerator } from './modules/auth/captcha';
import { createSessionService } from './modules/auth/session.service';
import { createSignInPurgeJob } from './modules/auth/sign-in-purge.job';
import { createSmsDispatchJob } from './modules/auth/sms-dispatch.job';
import { createOutboxSmsProvider, type SmsGateway, type SmsProvider } from './modules/auth/sms-provider';
import { registerFileRoutes } from './modules/file/file.routes';
import { createFileService } from './modules/file/file.service';
import { registerMenuRoutes } from './modules/menu/menu.routes';
import { createMenuService } from './modules/menu/menu.service';
import { registerUserAccountRoutes } from './modules/member/user-account.routes';
import { createUserAccountService } from './modules/member/user-account.service';
import { registerTenantRoutes } from './modules/tenant/tenant.routes';
import { createTenantService } from './modules/tenant/tenant.service';
import { registerCenterRoutes } from './modules/center/center.routes';
import { createCenterService } from './modules/center/center.service';
import { registerDictionaryRoutes } from './modules/dictionary/dictionary.routes';
import { createDictionaryService } from './modules/dictionary/dictionary.service';
import { registerDatabaseRoutes } from './modules/database/database.routes';
import { registerDatabaseIoRoutes } from './modules/database-io/database-io.routes';
import { createDatabaseIoService } from './modules/database-io/database-io.service';
import { createDatabaseService } from './modules/database/database.service';
import { registerPageConfigRoutes } from './modules/page-config/page-config.routes';
import { createPageConfigService } from './modules/page-config/page-config.service';
import { registerFollowupPlanRoutes } from './modules/followup/followup-plan.routes';
import { createFollowupPlanService } from './modules/followup/followup-plan.service';
import { createFollowupAssignmentService } from './modules/followup/followup-assignment.service';
import { registerPatientRecordRoutes } from './modules/patient-record/patient-record.routes';
import { createDefinitionCache } from './domain/crf/definition-cache';
import { registerRetrievalRoutes } from './modules/retrieval/retrieval.routes';
import { createRetrievalService } from './modules/retrieval/retrieval.service';
import { createPatientRecordService } from './modules/patient-record/patient-record.service';
import { createRecordHistoryService } from './modules/patient-record/record-history.service';
import { createDataQueryService } from './modules/patient-record/data-query.service';
import { createRecordMigrationService } from './modules/patient-record/record-migration.service';
import { createFollowupRecordService } from './modules/followup/followup-record.service';
import { createFollowupPatientService } from './modules/followup/followup-patient.service';
import { registerFollowupTaskRoutes } from './modules/followup/followup-task.routes';
import { createFollowupTaskService } from './modules/followup/followup-task.service';
import { registerPatientImportRoutes } from './modules/patient-import/patient-import.routes';
import { createPatientImportService } from './modules/patient-import/patient-import.service';
import { registerPatientRoutes } from './modules/patient/patient.routes';
import { createPatientService } from './modules/patient/patient.service';
import { resolvePhiKeys } from './lib/phi-crypto';
import { resolveAuditSealKey } from './lib/audit-seal-key';
import { createMemberService } from './modules/member/member.service';
import { registerMemberRoutes } from './modules/member/member.routes';
import { createRoleService } from './modules/member/role.service';
import { registerProjectManageRoutes } from './modules/project/project-manage.routes';
import { createProjectManageService } from './modules/project/project-manage.service';
import { registerProjectRoutes } from './modules/project/project.routes';
import { createProjectService } from './modules/project/project.service';
import { registerSupportAccessRoutes } from './modules/support-access/support-access.routes';
import { createSupportAccessService } from './modules/support-access/support-access.service';
import { registerSystemRoutes } from './modules/system/system.routes';
import { registerAccountRoutes } from './modules/account/account.routes';
import { createAccountService } from './modules/account/account.service';
import { createFollowupReminderJob } from './modules/followup/followup-reminder.job';
import {
  combineNotifiers,
  createInAppNotifier,
  createSmsNotifier,
  type Notifier,
} from './modules/notification/notifier';
import { registerNotificationRoutes } from './modules/notification/notification.routes';
import { createNotificationService } from './modules/notification/notification.service';
import { createJobQueue, type JobQueue } from './modules/jobs/job-queue';
import { registerJobRoutes } from './modules/jobs/jobs.routes';
import { createJobsService } from './modules/jobs/jobs.service';
import { registerAccess } from './plugins/access';
import { clientErrorHandler } from './plugins/client-error';
import { createIdempotencyCleanupJob, registerIdempotency } from './plugins/idempotency';
import { registerErrorHandler } from './plugins/error-handler';
import { registerJsonBody } from './plugins/json-body';
import { registerOpenApiRoute } from './plugins/openapi';
import { genRequestId, registerRequestHeaders, withRedaction } from './plugins/request-log';
import { createPgRateLimitStore } from './plugins/rate-limit-store';
import { registerSecurity } from './plugins/security';
import { configureZodMessages } from './plugins/zod-messages';
import { patientFollowupSync } from './modules/followup/followup-sync';
import { EXPORT_POLICY, EXPORT_QUEUE } from './domain/jobs/job-queues';
import { createExportExpiryJob } from './modules/export/export-expiry.job';
import { createExportRunner } from './modules/export/export-run';
import { registerExportRoutes } from './modules/export/export.routes';
import { createExportService } from './modules/export/export.service';

export type AppDeps = {
  config: AppConfig;
  pool: pg.Pool;
  /**
   * A read-only replica (DATABASE_REPLICA_URL) for reads that need not see the latest writes: exports, retrieval,
   * analysis. Default: the primary (`pool`).
   */
  readPool?: pg.Pool;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  smsProvider?: SmsProvider;
  /** Where uploaded files are stored (default: the one the configuration names, STORAGE_DRIVER). */
  fileStorage?: ObjectStorage;
  /**
   * A real SMS gateway's adapter for the outbox provider (ignored when `smsProvider` is given): messages are handed
   * to it and marked sent; without one they stay in `sms_outbox`, unsent.
   */
  smsGateway?: SmsGateway;
  captcha?: CaptchaGenerator;
  /** Per-IP limit of `POST auth/login` and `GET auth/sms` (default: LOGIN_RATE_LIMIT_PER_MINUTE a minute); captcha and QR images get 3×. */
  loginRateLimit?: LoginRateLimit;
  /** Shown by `version.json` when the web app has none. */
  startedAt?: Date;
  /** Delivers notifications (default: in-app, plus SMS when REMINDER_SMS_ENABLED). */
  notifier?: Notifier;
  /**
   * Whether the database is prepared (reachable and migrated). Until it says so, every API route (`/health` too)
   * answers 503 with the outage message: a server started while its database is down listens at once and serves
   * as soon as `main` has migrated. Default: always ready.
   */
  databaseReady?: () => boolean;
  /** How long a repeated write waits for the first request with its idempotency key to finish (default 2 s), then 409. */
  idempotencyWaitMs?: number;
  /** Sees every route as it is registered (the route-table test). */
  routeObserver?: (route: RouteOptions) => void;
};

/** Builds the whole application without listening; tests drive it with `app.inject`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  configureZodMessages();
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: withRedaction(deps.logger ?? false),
    trustProxy: config.trustProxy,
    genReqId: genRequestId,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = createDb(deps.pool);
  // reads that tolerate replication lag (ADR 0015): never for a read that must see the caller's own last write
  const readDb = deps.readPool ? createDb(deps.readPool) : db;
  const sessions = createSessionService({ db, clock, config });
  const outbox = deps.smsProvider
    ? undefined
    : createOutboxSmsProvider({
        db,
        clock,
        logger: app.log,
        logToConsole: process.env.NODE_ENV === 'development',
        gateway: deps.smsGateway,
      });
  const sms: SmsProvider = deps.smsProvider ?? outbox!;
  const storage = deps.fileStorage ?? createStorage(config.storage);
  // the storage built here is this app's to release; one handed in belongs to the caller
  if (!deps.fileStorage) app.addHook('onClose', async () => storage.close());

  registerErrorHandler(app, { uploadMaxBytes: config.uploadMaxBytes });
  if (deps.databaseReady) {
    const ready = deps.databaseReady;
    // first of all hooks: nothing behind it (session lookup, rate limits) may touch an unprepared database
    app.addHook('onRequest', async (request) => {
      if (!ready() && request.url.startsWith(`${API_BASE}/`)) throw new AppError(503, ERROR_MESSAGES.dbUnavailable);
    });
  }
  registerJsonBody(app);
  app.setNotFoundHandler((request) => {
    throw new AppError(404, request.url.startsWith('/api/') ? ERROR_MESSAGES.routeNotFound : '页面不存在');
  });
  registerRequestHeaders(app);

  await registerSecurity(app, {
    uploadMaxBytes: config.uploadMaxBytes,
    uploadMaxFiles: config.uploadMaxFiles,
    hstsMaxAge: config.hstsEnabled ? config.hstsMaxAge : null,
    rateLimitStore: createPgRateLimitStore({ db }),
  });

  if (deps.routeObserver) {
    const observe = deps.routeObserver;
    app.addHook('onRoute', (route) => observe(route));
  }
  const routeTable: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routeTable.push(route);
  });
  registerAccess(app, { sessions, db, clock });
  const phiKeys = await resolvePhiKeys(config);
  // after the access hook (it needs the session), before any handler (ADR 0011)
  registerIdempotency(app, { db, clock, keys: phiKeys, waitMs: deps.idempotencyWaitMs });
  const loginRateLimit = deps.loginRateLimit ?? { max: config.loginRateLimitPerMinute, timeWindow: 60_000 };

  registerAuthRoutes(app, {
    auth: createAuthService({ db, clock, config, sessions, sms, captcha: deps.captcha ?? svgCaptchaGenerator }),
    loginRateLimit: loginRateLimit,
    imageRateLimit: { ...loginRateLimit, max: loginRateLimit.max * 3 },
  });
  registerMenuRoutes(app, { menu: createMenuService({ db }) });
  registerSupportAccessRoutes(app, { support: createSupportAccessService({ db, clock }) });
  registerAccountRoutes(app, { users: createAccountService({ db, clock, sessions }) });
  registerProjectRoutes(app, { projects: createProjectService({ db, clock, sessions }) });
  registerProjectManageRoutes(app, { manage: createProjectManageService({ db, clock }) });
  registerCenterRoutes(app, { centers: createCenterService({ db, clock }) });
  registerMemberRoutes(app, {
    roles: createRoleService({ db, clock }),
    members: createMemberService({ db, clock }),
  });
  registerUserAccountRoutes(app, { accounts: createUserAccountService({ db, clock, sessions }) });
  registerTenantRoutes(app, { tenants: createTenantService({ db, clock }) });
  const files = createFileService({ db, clock, storage, maxBytes: config.uploadMaxBytes });
  registerFileRoutes(app, { files, uploadMaxBytes: config.uploadMaxBytes });
  registerAuditRoutes(app, { audit: createAuditService({ db }) });
  registerDictionaryRoutes(app, { dictionaries: createDictionaryService({ db, clock }) });
  registerDatabaseRoutes(app, { database: createDatabaseService({ db, clock }) });
  registerDatabaseIoRoutes(app, { io: createDatabaseIoService({ db, clock }) });
  const patients = createPatientService({ db, clock, keys: phiKeys, followup: patientFollowupSync });
  registerPatientRoutes(app, { patients });
  registerPatientImportRoutes(app, {
    imports: createPatientImportService({ db, clock, keys: phiKeys, patients, files, followup: patientFollowupSync }),
  });
  // follow-up: plans, assignments, task generation
  registerFollowupPlanRoutes(app, {
    plans: createFollowupPlanService({ db, clock }),
    assignments: createFollowupAssignmentService({ db, clock }),
  });
  registerPageConfigRoutes(app, { pageConfigs: createPageConfigService({ db, clock }) });
  // notifications (follow-up reminders, queries), delivered in the caller's transaction
  const notifier =
    deps.notifier ??
    (config.reminderSmsEnabled
      ? combineNotifiers(createInAppNotifier(), createSmsNotifier({ sms, now: () => clock.now() }))
      : createInAppNotifier());
  const definitions = createDefinitionCache();
  registerRetrievalRoutes(app, { retrieval: createRetrievalService({ db, clock, definitions }) });
  const formRecords = createPatientRecordService({ db, clock, definitions, patients, followup: patientFollowupSync });
  const recordMigration = createRecordMigrationService({ db, clock, definitions });
  registerPatientRecordRoutes(app, {
    records: formRecords,
    history: createRecordHistoryService({ db, clock, definitions }),
    queries: createDataQueryService({ db, clock, definitions, notifier }),
    migration: recordMigration,
  });
  // follow-up worklist and record
  registerFollowupTaskRoutes(app, {
    tasks: createFollowupTaskService({ db, readDb, clock, keys: phiKeys }),
    followupRecords: createFollowupRecordService({ db, clock, keys: phiKeys, records: formRecords }),
    followupPatients: createFollowupPatientService({ db, clock, keys: phiKeys }),
  });
  // the notification calls and the job queue (pg-boss, ADR 0014): the scheduled jobs (reminders, housekeeping), the
  // users' and the administrator's job calls; workers start when the app is ready (JOBS_ENABLED), stop on close
  registerNotificationRoutes(app, { notifications: createNotificationService({ db, clock }) });
  const jobs: JobQueue = createJobQueue({
    pool: deps.pool,
    db,
    clock,
    logger: app.log,
    settings: {
      pollingIntervalSeconds: config.jobsPollMs / 1000,
      maintenanceIntervalSeconds: config.jobsMaintenanceSeconds,
      cronIntervalSeconds: config.jobsCronSeconds,
      // runMigrations installs and upgrades pg-boss's schema as the owner; the app only checks its version
      migrate: false,
    },
  });
  jobs.every(createFollowupReminderJob({ db, clock, notifier, intervalSeconds: config.reminderIntervalSeconds }));
  jobs.every(createIdempotencyCleanupJob({ db, clock }));
  jobs.every(createSignInPurgeJob({ db, clock }));
  // hands the messages written inside transactions (notifications) to the SMS gateway, when there is one
  if (outbox && deps.smsGateway) jobs.every(createSmsDispatchJob(outbox));
  // seals the audit events after their commit (ADR 0013); the heads go to the object storage every instance shares,
  // so that whichever instance runs the sealer, the others (and audit:verify) read the same heads
  const auditHeads = createStorageHeadStore(storage);
  jobs.every(
    createAuditSealJob({
      db,
      clock,
      key: await resolveAuditSealKey(config),
      heads: auditHeads,
      intervalSeconds: config.auditSealIntervalSeconds,
    }),
  );
  // the heads earlier versions kept in this instance's DATA_DIR/audit-heads, carried over (never moving a head back);
  // a failure is logged, not fatal: verification then reports the chain's head as missing or behind
  app.addHook('onReady', async () => {
    try {
      const carried = await copyHeads(createFileHeadStore(config.dataDir), auditHeads);
      if (carried.length > 0)
        app.log.info({ chains: carried.length }, 'audit heads of DATA_DIR/audit-heads carried onto the object storage');
    } catch (err) {
      app.log.warn({ err }, 'audit heads of DATA_DIR/audit-heads could not be carried onto the object storage');
    }
  });
  // data exports (issue 15): asked by the calls, written by the export job, expired files removed hourly
  jobs.define(
    { name: EXPORT_QUEUE, ...EXPORT_POLICY },
    createExportRunner({ db, pool: deps.pool, clock, storage, definitions, keys: phiKeys }),
  );
  jobs.every(createExportExpiryJob({ db, clock, storage }));
  registerExportRoutes(app, { exports: createExportService({ db, clock, definitions, jobs, storage }) });
  app.decorate('jobs', jobs);
  registerJobRoutes(app, { jobs: createJobsService({ db, clock, jobs }) });
  if (config.jobsEnabled) app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());
  registerOpenApiRoute(app, { routes: routeTable });
  await registerSystemRoutes(app, { db, webDist: config.webDist, startedAt: deps.startedAt ?? clock.now() });

  return app;
}
