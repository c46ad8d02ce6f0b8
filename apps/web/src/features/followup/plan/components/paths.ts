import type { PlanKind } from '@registry/shared/contracts/followup';

export const LIST_PATH = '/manage/followup';
/** The editor of each plan kind. */
export const EDITOR_PATH: Readonly<Record<PlanKind, string>> = {
  relative: '/manage/followup/config',
  fixed: '/manage/fix-followup-plan',
};
