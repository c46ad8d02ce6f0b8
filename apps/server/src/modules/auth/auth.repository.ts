import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { captchas, loginAttempts, qrLogins, sessions, smsCodes, tenants, users } from '../../db/schema';

export type LoginUser = {
  id: string;
  tenantId: string;
  username: string;
  passwordHash: string;
  initPwd: boolean;
  disabled: boolean;
  failedLogins: number;
  lockedUntil: Date | null;
};

const loginUserColumns = {
  id: users.id,
  tenantId: users.tenantId,
  username: users.username,
  passwordHash: users.passwordHash,
  initPwd: users.initPwd,
  disabled: users.disabled,
  failedLogins: users.failedLogins,
  lockedUntil: users.lockedUntil,
};

export async function findLoginUserByUsername(db: Executor, username: string): Promise<LoginUser | undefined> {
  const rows = await db
    .select(loginUserColumns)
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return rows[0];
}

export async function findLoginUserByPhone(db: Executor, phone: string): Promise<LoginUser | undefined> {
  const rows = await db.select(loginUserColumns).from(users).where(eq(users.phone, phone)).limit(1);
  return rows[0];
}

export async function findLoginUserById(db: Executor, id: string): Promise<LoginUser | undefined> {
  const rows = await db.select(loginUserColumns).from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** Counts one more consecutive failure of the account (kept for the administrators' view; it locks nothing). */
export async function recordFailure(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ failedLogins: sql`${users.failedLogins} + 1` })
    .where(eq(users.id, userId));
}

export async function clearFailures(db: Executor, userId: string): Promise<void> {
  await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, userId));
}

/**
 * Failed sign-ins of a sign-in name (a username, lower case, or a phone) since `since` and since its last success.
 * The same count for an account that exists and one that does not: the answer cannot tell them apart.
 */
export async function recentFailuresOf(db: Executor, username: string, since: Date): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from ${loginAttempts}
     where ${loginAttempts.username} = ${username} and ${loginAttempts.success} = false and ${loginAttempts.at} > ${since.toISOString()}::timestamptz
       and ${loginAttempts.at} > coalesce((select max(s.at) from ${loginAttempts} s where s.username = ${username} and s.success), '-infinity'::timestamptz)`);
  return Number((result.rows[0] as { n?: number } | undefined)?.n ?? 0);
}

/** Failed sign-ins from one IP since `since`: their count and the time of the latest. */
export async function recentFailuresFromIp(
  db: Executor,
  ip: string,
  since: Date,
): Promise<{ count: number; last: Date | null }> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int`, last: sql<string | null>`max(${loginAttempts.at})::text` })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ip), eq(loginAttempts.success, false), gt(loginAttempts.at, since)));
  const row = rows[0];
  return { count: Number(row?.n ?? 0), last: row?.last ? new Date(row.last) : null };
}

/** Wrong codes entered for a phone since `since` (the creation of its newest code). */
export async function wrongSmsCodesSince(db: Executor, phone: string, since: Date): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginAttempts)
    .where(
      and(eq(loginAttempts.username, phone), eq(loginAttempts.reason, 'bad_sms_code'), gt(loginAttempts.at, since)),
    );
  return Number(rows[0]?.n ?? 0);
}

/** Kills the phone's unused sign-in codes (too many wrong tries). */
export async function burnSmsCodes(db: Executor, phone: string, now: Date): Promise<void> {
  await db
    .update(smsCodes)
    .set({ usedAt: now })
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, 'login'), isNull(smsCodes.usedAt)));
}

export async function insertLoginAttempt(
  db: Executor,
  row: { username: string; ip: string | null; success: boolean; reason: string; at: Date },
): Promise<void> {
  await db.insert(loginAttempts).values({ ...row, username: row.username.slice(0, 128) });
}

export async function insertCaptcha(
  db: Executor,
  row: { key: string; answerHash: string; expiresAt: Date; createdAt: Date },
) {
  await db.insert(captchas).values(row);
}

/** Marks the captcha used (whatever the answer: single use) and returns its answer hash when it was still valid. */
export async function consumeCaptcha(db: Executor, key: string, now: Date): Promise<string | undefined> {
  const rows = await db
    .update(captchas)
    .set({ usedAt: now })
    .where(and(eq(captchas.key, key), isNull(captchas.usedAt), gt(captchas.expiresAt, now)))
    .returning({ answerHash: captchas.answerHash });
  return rows[0]?.answerHash;
}

export async function lastSmsCodeAt(db: Executor, phone: string): Promise<Date | undefined> {
  const rows = await db
    .select({ createdAt: smsCodes.createdAt })
    .from(smsCodes)
    .where(eq(smsCodes.phone, phone))
    .orderBy(desc(smsCodes.createdAt))
    .limit(1);
  return rows[0]?.createdAt;
}

export async function insertSmsCode(
  db: Executor,
  row: { phone: string; codeHash: string; purpose: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(smsCodes).values(row);
}

/** Consumes the phone's newest valid code when it matches. */
export async function consumeSmsCode(db: Executor, phone: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(smsCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(smsCodes.phone, phone),
        eq(smsCodes.codeHash, codeHash),
        eq(smsCodes.purpose, 'login'),
        isNull(smsCodes.usedAt),
        gt(smsCodes.expiresAt, now),
      ),
    )
    .returning({ id: smsCodes.id });
  return rows.length > 0;
}

export async function insertQrLogin(db: Executor, row: { key: string; expiresAt: Date; createdAt: Date }) {
  await db.insert(qrLogins).values({ ...row, state: 'pending' });
}

export async function findQrLogin(db: Executor, key: string) {
  const rows = await db.select().from(qrLogins).where(eq(qrLogins.key, key)).limit(1);
  return rows[0];
}

export async function updateQrLogin(
  db: Executor,
  key: string,
  fromStates: ReadonlyArray<'pending' | 'scanned' | 'confirmed'>,
  now: Date,
  set: Partial<{ state: 'pending' | 'scanned' | 'confirmed' | 'expired'; userId: string; expiresAt: Date }>,
): Promise<boolean> {
  const rows = await db
    .update(qrLogins)
    .set(set)
    .where(
      and(
        eq(qrLogins.key, key),
        inArray(qrLogins.state, [...fromStates]),
        gt(qrLogins.expiresAt, now),
        isNull(qrLogins.consumedAt),
      ),
    )
    .returning({ key: qrLogins.key });
  return rows.length > 0;
}

/** Hands a confirmed code out once: returns its user when this call consumed it. */
export async function consumeQrLogin(db: Executor, key: string, now: Date): Promise<string | undefined> {
  const rows = await db
    .update(qrLogins)
    .set({ consumedAt: now })
    .where(
      and(
        eq(qrLogins.key, key),
        eq(qrLogins.state, 'confirmed'),
        isNull(qrLogins.consumedAt),
        gt(qrLogins.expiresAt, now),
      ),
    )
    .returning({ userId: qrLogins.userId });
  return rows[0]?.userId ?? undefined;
}

export async function findTenantByCode(db: Executor, code: string) {
  const rows = await db.select().from(tenants).where(eq(tenants.code, code)).limit(1);
  return rows[0];
}

/**
 * Deletes one-time sign-in material (captchas, SMS codes, QR codes) expired for more than a day, and sessions past
 * their lifetime for more than 30 days. Login attempts and the audit trail are kept.
 */
export async function purgeExpiredSignInData(db: Executor, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000);
  const monthAgo = new Date(now.getTime() - 30 * 24 * 3_600_000);
  const counts = await Promise.all([
    db.delete(captchas).where(lt(captchas.expiresAt, dayAgo)).returning({ k: captchas.key }),
    db.delete(smsCodes).where(lt(smsCodes.expiresAt, dayAgo)).returning({ k: smsCodes.id }),
    db.delete(qrLogins).where(lt(qrLogins.expiresAt, dayAgo)).returning({ k: qrLogins.key }),
    db.delete(sessions).where(lt(sessions.expiresAt, monthAgo)).returning({ k: sessions.id }),
  ]);
  return counts.reduce((n, rows) => n + rows.length, 0);
}
