import type { FormInstance } from 'antd';
import { ApiError } from './request';

/**
 * Marks the form fields named by a validation error's `issues: [{ path, message }]` (the server's 400 answer), so
 * the message appears under the field as well as in the toast. Returns whether any field was marked.
 */
export function applyServerIssues<T>(form: FormInstance<T>, error: unknown, fields: readonly string[]): boolean {
  if (!(error instanceof ApiError)) return false;
  const issues = (error.body?.issues ?? []).filter((issue) => fields.includes(issue.path));
  if (issues.length === 0) return false;
  form.setFields(
    issues.map((issue) => ({ name: issue.path, errors: [issue.message] })) as Parameters<
      FormInstance<T>['setFields']
    >[0],
  );
  return true;
}
