import { Button, Card, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { ProjectScope } from '../../../lib/project-scope';
import { useProjectStore } from '../../../lib/stores/project-store';
import { toast } from '../../../lib/toast';
import { useCreatePatient } from '../api/create-patient';
import { PatientForm } from '../../../components/patient-form/patient-form';

/**
 * `/patient/add`: the demographics of a new patient. Saved, the patient opens in `/patient/edit`, where the CRFs are
 * filled.
 */
export function PatientAddPage() {
  const navigate = useNavigate();
  const projectName = useProjectStore((s) => s.projectName);
  const create = useCreatePatient();
  return (
    <Card
      title="新增患者"
      variant="borderless"
      extra={projectName && <Typography.Text type="secondary">{projectName}</Typography.Text>}
    >
      <ProjectScope>
        <Typography.Paragraph type="secondary">
          先登记患者的基本信息；保存后进入患者的病例报告表（CRF）继续录入。患者编号由系统按中心自动生成。
        </Typography.Paragraph>
        <PatientForm
          mode="create"
          submitText="保存并录入表单"
          onSubmit={async (body) => {
            const patient = await create.mutateAsync(body);
            toast.success(`已新增患者 ${patient.patientNo}`);
            navigate(`/patient/edit?id=${encodeURIComponent(patient.id)}`);
          }}
          extraActions={<Button onClick={() => navigate('/patient/list')}>返回列表</Button>}
        />
      </ProjectScope>
    </Card>
  );
}
