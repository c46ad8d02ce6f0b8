/**
 * The answer to any call of a session whose user still has the initial password (`initPwd`), except the calls the
 * 设置密码 dialog needs (user info, password change, log out) and the public ones. Not a 401: the web keeps the
 * session and opens the dialog instead of signing out. 428 Precondition Required: the password must be set first.
 */
export const PASSWORD_SETUP_REQUIRED = { status: 428, message: '请先设置新密码' } as const;
