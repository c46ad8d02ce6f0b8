import { z } from 'zod';
import { pageRequest } from './envelope';
import { chosenPasswordField } from './fields';
import { MOBILE_PHONE, USERNAME } from '../rules';

/**
 * Members of the current project (a sub-project uses its parent's members). Base `project-member`; access
 * `permission.manage`. A center-scoped manager sees and manages only their center's members.
 */
const id = (message: string) => z.guid(message);

export const memberVO = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  departmentName: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  /** null = all centers (show '全部中心'). */
  centerId: z.string().nullable(),
  centerName: z.string().nullable(),
  /** True for the project owner role. */
  owner: z.boolean(),
  disabled: z.boolean(),
  joinedAt: z.string(),
});
export type MemberVO = z.infer<typeof memberVO>;

/** `POST project-member/page`: filters keyword (name or username contains), roleId, centerId. */
export const memberPageRequest = pageRequest.extend({
  keyword: z.string().trim().max(100, '关键字不能超过100个字符').optional(),
  roleId: id('请选择角色').optional(),
  centerId: id('请选择中心').optional(),
});
export type MemberPageRequest = z.infer<typeof memberPageRequest>;

/**
 * `POST project-member`: adds an existing active user of the acting tenant. Already a member → 409
 * '该用户已是项目成员'. The role is a role of the project, the center one of its open centers (null = all centers).
 */
export const memberAddRequest = z.object({
  userId: id('请选择用户'),
  roleId: id('请选择角色'),
  centerId: id('请选择中心').nullable(),
});
export type MemberAddRequest = z.infer<typeof memberAddRequest>;

/** An administrator's chosen initial password follows the shared password rule (`password-policy.ts`). */
const passwordField = chosenPasswordField('初始密码');

/** The fields of a new account (also used by `sys-tenant` for a tenant's first administrator). */
export const newAccountFields = {
  username: z
    .string()
    .trim()
    .min(USERNAME.min.min, USERNAME.min.message)
    .max(USERNAME.max.max, USERNAME.max.message)
    .regex(USERNAME.format.pattern, USERNAME.format.message),
  name: z.string().trim().min(1, '请输入姓名').max(50, '姓名不能超过50个字符'),
  phone: z.string().trim().regex(MOBILE_PHONE.pattern, MOBILE_PHONE.message).nullable().optional(),
  /** Found or created in the acting tenant's hospital. */
  departmentName: z.string().trim().max(50, '科室名称不能超过50个字符').nullable().optional(),
  /** When absent the server generates one. */
  password: passwordField.optional(),
};

/**
 * `POST project-member/account`: creates an account in the acting tenant (`init_pwd` = true: the 'set password' dialog
 * appears at first sign-in) and adds it as a member. Username or phone taken → 409 '用户名已存在' / '手机号已被使用'.
 */
export const memberAccountRequest = z.object({
  ...newAccountFields,
  roleId: id('请选择角色'),
  centerId: id('请选择中心').nullable(),
});
export type MemberAccountRequest = z.infer<typeof memberAccountRequest>;
/** The initial password is returned ONCE, here; it is never shown again. */
export const memberAccountResponse = z.object({ member: memberVO, initialPassword: z.string() });
export type MemberAccountResponse = z.infer<typeof memberAccountResponse>;

/** `PUT project-member`: change role and/or center. The last owner cannot lose the owner role (409). */
export const memberUpdateRequest = z.object({
  id: id('请选择成员'),
  roleId: id('请选择角色').optional(),
  centerId: id('请选择中心').nullable().optional(),
});
export type MemberUpdateRequest = z.infer<typeof memberUpdateRequest>;

/** `DELETE project-member?id=`: the last owner cannot be removed (409 '不能移除项目的最后一位负责人'). */
export const memberDeleteQuery = z.object({ id: id('请选择成员') });
