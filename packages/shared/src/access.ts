/**
 * The answer to any call of a session whose user still has the initial password (`initPwd`), except the calls the
 * 设置密码 dialog needs (user info, password change, log out) and the public ones. Not a 401: the web keeps the
 * session and opens the dialog instead of signing out. 428 Precondition Required: the password must be set first.
 */
export const PASSWORD_SETUP_REQUIRED = { status: 428, message: '请先设置新密码' } as const;

/**
 * Every write call (POST, PUT, PATCH, DELETE) carries a random key, the same on its timeout retry; the server runs a
 * signed-in write once per key and answers a repeat with the stored answer (ADR 0011).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Set on an answer the server replayed from an earlier request with the same idempotency key. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
