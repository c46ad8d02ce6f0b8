import { z } from 'zod';

let zodConfigured = false;
/** Zod messages in Chinese; a missing value reads '不能为空'. */
export function configureZodMessages(): void {
  if (zodConfigured) return;
  zodConfigured = true;
  z.config(z.locales.zhCN());
  z.config({
    customError: (issue) => {
      if (issue.code === 'invalid_type' && issue.input === undefined) return '不能为空';
      // A discriminated union reports the whole object as input and the discriminator as the path.
      if (issue.code === 'invalid_union' && 'discriminator' in issue && typeof issue.discriminator === 'string') {
        const value = (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator];
        return value === undefined ? '不能为空' : '取值无效';
      }
      return undefined;
    },
  });
}
