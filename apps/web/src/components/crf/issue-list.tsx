import type { RecordIssue } from '@registry/shared/contracts/form-definition';

/** The status an input shows for its issues: any hard issue is an error, soft issues only a warning (orange). */
export function issueStatus(issues: readonly RecordIssue[]): 'error' | 'warning' | undefined {
  if (issues.length === 0) return undefined;
  return issues.some((i) => i.level === 'hard') ? 'error' : 'warning';
}

/** Same issues in the same order (server and engine issues are rebuilt on every check). */
export function sameIssues(a: readonly RecordIssue[], b: readonly RecordIssue[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    return y !== undefined && x.path === y.path && x.message === y.message && x.level === y.level;
  });
}

const COLORS = { hard: '#ff4d4f', soft: '#fa8c16' } as const;

/** The messages under a field: hard in red, soft in orange. */
export function IssueList({ issues }: { issues: readonly RecordIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <>
      {issues.map((issue, i) => (
        <div
          key={`${issue.path}-${i}`}
          className={`crf-issue crf-issue-${issue.level}`}
          style={{ color: COLORS[issue.level] }}
        >
          {issue.message}
        </div>
      ))}
    </>
  );
}
