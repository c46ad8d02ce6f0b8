import { Alert, List, Typography } from 'antd';
import type { DefinitionProblem } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import type { FieldRef } from '../hooks/definition-ops';

/** Where a problem's path (`categories.0.forms.1.fields.3.fields.0.showIf`) points: a form, maybe a field. */
export function problemTarget(
  definition: Definition,
  path: string,
): { formKey: string; field: FieldRef | null } | null {
  const match = /^categories\.(\d+)\.forms\.(\d+)(?:\.fields\.(\d+)(?:\.fields\.(\d+))?)?/.exec(path);
  if (!match) return null;
  const form = definition.categories[Number(match[1])]?.forms[Number(match[2])];
  if (!form) return null;
  const field = match[3] === undefined ? undefined : form.fields[Number(match[3])];
  if (!field) return { formKey: form.key, field: null };
  const column = match[4] === undefined ? undefined : field.fields?.[Number(match[4])];
  return {
    formKey: form.key,
    field: { formKey: form.key, fieldKey: field.key, columnKey: column?.key ?? null },
  };
}

export type ProblemsPanelProps = {
  problems: readonly DefinitionProblem[];
  definition: Definition;
  onPick: (target: { formKey: string; field: FieldRef | null }) => void;
};

/** The engine's problems of the working draft (they block publishing); a click selects the field concerned. */
export function ProblemsPanel({ problems, definition, onPick }: ProblemsPanelProps) {
  if (problems.length === 0) {
    return <Alert type="success" showIcon title="未发现问题，可以发布" className="problems-ok" />;
  }
  return (
    <div className="problems-panel">
      <Alert type="warning" showIcon title={`发现 ${problems.length} 个问题，修正后才能发布`} />
      <List
        size="small"
        dataSource={problems as DefinitionProblem[]}
        renderItem={(problem, index) => {
          const target = problemTarget(definition, problem.path);
          return (
            <List.Item key={`${problem.path}-${index}`}>
              <Typography.Link
                disabled={!target}
                onClick={() => {
                  if (target) onPick(target);
                }}
              >
                {problem.message}
              </Typography.Link>
            </List.Item>
          );
        }}
      />
    </div>
  );
}
