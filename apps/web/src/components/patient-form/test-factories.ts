import type { CenterVO } from '@registry/shared/contracts/center';
import type { PatientVO } from '@registry/shared/contracts/patient';

export function buildCenter(overrides: Partial<CenterVO> = {}): CenterVO {
  return {
    id: 'c-1',
    code: 'C01',
    name: '示例第一人民医院',
    organisationId: 'o-1',
    organisationName: '示例第一人民医院',
    leadUserId: 'u-1',
    leadName: '王主任',
    status: 'active',
    isDefault: true,
    memberCount: 3,
    createdAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

export function buildPatient(overrides: Partial<PatientVO> = {}): PatientVO {
  return {
    id: '9a3e6c1b-2f4d-4e8a-b1c7-5d6e7f8a9b01',
    patientNo: 'C01-0001',
    name: '张三',
    gender: '1',
    birthDate: '1968-05-12',
    hospitalNo: 'ZY20260001',
    idNumber: '110101196805120013',
    phone: '13800000001',
    masked: false,
    centerId: 'c-1',
    centerCode: 'C01',
    centerName: '示例第一人民医院',
    subProjectId: null,
    enrolDate: '2026-10-08',
    status: 'enrolled',
    rowVersion: 1,
    createdAt: '2026-10-08T02:00:00.000Z',
    updatedAt: '2026-10-09T03:30:00.000Z',
    ...overrides,
  };
}
