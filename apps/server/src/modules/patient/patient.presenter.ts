import type { PatientGender, PatientVO } from '@registry/shared/contracts/patient';
import { showPatientValue } from '@registry/shared/phi-mask';
import { decryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import type { PatientRow } from './patient.repository';

/** A patient as the web sees it: identity data decrypted, then masked unless `pii`. */
export function presentPatient(row: PatientRow, keys: PhiKeys, pii: boolean): PatientVO {
  const idNumber = row.idNumberEnc ? decryptPhi(keys, row.idNumberEnc) : null;
  const phone = row.phoneEnc ? decryptPhi(keys, row.phoneEnc) : null;
  return {
    id: row.id,
    patientNo: row.patientNo,
    name: showPatientValue('name', row.name, pii),
    gender: (row.gender as PatientGender | null) ?? null,
    birthDate: showPatientValue('birthDate', row.birthDate, pii),
    hospitalNo: showPatientValue('hospitalNo', row.hospitalNo, pii),
    idNumber: showPatientValue('idNumber', idNumber, pii),
    phone: showPatientValue('phone', phone, pii),
    masked: !pii,
    centerId: row.centerId,
    centerCode: row.centerCode,
    centerName: row.centerName,
    subProjectId: row.subProjectId,
    enrolDate: row.enrolDate,
    status: row.status,
    rowVersion: row.rowVersion,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
