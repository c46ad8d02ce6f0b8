import { Button, Modal } from 'antd';
import type { PatientVO } from '@registry/shared/contracts/patient';
import { toast } from '../../../lib/toast';
// The demographics form of /patient/add, reused for editing (one form for both pages).
import { PatientForm } from '../../../components/patient-form/patient-form';
import { useUpdatePatient } from '../api/update-patient';

/** The demographics dialog: the /patient/add form in edit mode, saved with the patient's rowVersion. */
export function DemographicsDialog({
  patient,
  onClose,
  onReload,
}: {
  patient: PatientVO;
  onClose: () => void;
  onReload: () => void;
}) {
  const update = useUpdatePatient();
  return (
    <Modal open title="编辑基本信息" width={880} footer={null} onCancel={onClose} destroyOnHidden maskClosable={false}>
      <PatientForm
        mode="edit"
        patient={patient}
        onReload={onReload}
        onSubmit={async (body) => {
          await update.mutateAsync(body);
          toast.success('基本信息已保存');
          onClose();
        }}
        extraActions={<Button onClick={onClose}>取消</Button>}
      />
    </Modal>
  );
}
