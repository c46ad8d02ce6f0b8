import { Card } from 'antd';
import { useSearchParams } from 'react-router';
import { ProjectScope } from '../../../../lib/project-scope';
import { PlanEditor } from './plan-editor';

function EditorPage({ kind, what }: { kind: 'relative' | 'fixed'; what: string }) {
  const [params] = useSearchParams();
  const title = params.get('id') ? `编辑${what}` : `新建${what}`;
  return (
    <Card title={title} variant="borderless">
      <ProjectScope>
        <PlanEditor kind={kind} />
      </ProjectScope>
    </Card>
  );
}

/** `/manage/followup/config`: a relative plan (visits at offsets from an anchor date); `?id=` edits one. */
export function RelativePlanPage() {
  return <EditorPage kind="relative" what="相对随访计划" />;
}

/** `/manage/fix-followup-plan`: a fixed plan (calendar dates, one by one or as a period); `?id=` edits one. */
export function FixedPlanPage() {
  return <EditorPage kind="fixed" what="固定随访计划" />;
}
