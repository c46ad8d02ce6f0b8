import { BUILT_IN_ROLES } from '@registry/shared/roles';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { generateInitialPassword } from '../../lib/initial-password';
import { hashPassword } from '../../lib/password';
import { passwordProblem } from '@registry/shared/password-policy';
import { MANAGE_MESSAGES as M } from '../messages/project-messages';
import { findOrCreateDepartment, findUsernameOrPhone, insertUser } from './new-account.repository';

export type NewAccountInput = {
  username: string;
  name: string;
  phone?: string | null | undefined;
  departmentName?: string | null | undefined;
  password?: string | undefined;
};

/** Refuses a taken username or phone with 409 before anything is written (the unique indexes catch a race). */
export async function checkAccountFree(db: Executor, input: NewAccountInput): Promise<void> {
  const { usernameTaken, phoneTaken } = await findUsernameOrPhone(db, input.username, input.phone ?? null);
  if (usernameTaken) throw new AppError(409, M.usernameTaken);
  if (phoneTaken) throw new AppError(409, M.phoneTaken);
}

/**
 * Creates an account in a tenant with `init_pwd` (the 'set password' dialog at first sign-in). The password is the
 * given one or a generated one; it is returned here once and stored only as an argon2id hash.
 */
export async function createAccount(
  tx: Executor,
  input: NewAccountInput & {
    tenantId: string;
    organisationId: string | null;
    tenantRoleCode?: string;
    at: Date;
  },
): Promise<{ user: { id: string; username: string; name: string }; initialPassword: string }> {
  if (input.password !== undefined) {
    // The contract checked length and the common list; the username is known only here.
    const problem = passwordProblem(input.password, input.username, '初始密码');
    if (problem) throw new AppError(400, problem, [{ path: 'password', message: problem }]);
  }
  const initialPassword = input.password ?? generateInitialPassword();
  const departmentId =
    input.departmentName && input.organisationId
      ? await findOrCreateDepartment(tx, input.tenantId, input.organisationId, input.departmentName)
      : null;
  const user = await insertUser(tx, {
    tenantId: input.tenantId,
    organisationId: input.organisationId,
    departmentId,
    username: input.username,
    name: input.name,
    phone: input.phone ?? null,
    passwordHash: await hashPassword(initialPassword),
    initPwd: true,
    tenantRoleCode: input.tenantRoleCode ?? BUILT_IN_ROLES.tenantMember.code,
    createdAt: input.at,
    updatedAt: input.at,
  });
  return { user, initialPassword };
}
