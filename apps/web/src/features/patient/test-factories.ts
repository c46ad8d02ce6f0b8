import type { CenterVO } from '@registry/shared/contracts/center';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import type { ImportCellError, ImportReport } from '@registry/shared/contracts/patient-import';
import type { PatientListItem, PatientVO } from '@registry/shared/contracts/patient';
import type { Definition } from '@registry/shared/forms/definition';

/** Realistic data of the patient pages' tests (the demo project 心衰登记 at two centers). */

export const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };

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

export function buildListItem(
  overrides: Partial<PatientVO> = {},
  fields: Record<string, unknown> = {},
): PatientListItem {
  return { ...buildPatient(overrides), fields };
}

/** A published definition with list-flagged fields of every filter kind, and fields that are not list columns. */
export const LIST_DEFINITION: Definition = {
  categories: [
    {
      key: 'baseline',
      title: '基线',
      forms: [
        {
          key: 'vitals',
          title: '生命体征',
          fields: [
            { key: 'weight', label: '体重', type: 'decimal', unit: 'kg', precision: 1, listColumn: true },
            { key: 'height', label: '身高', type: 'integer', unit: 'cm' },
            {
              key: 'nyha',
              label: 'NYHA分级',
              type: 'radio',
              listColumn: true,
              options: [
                { code: '1', label: 'I级' },
                { code: '2', label: 'II级' },
                { code: '3', label: 'III级' },
                { code: '4', label: 'IV级' },
              ],
            },
            { key: 'visit_date', label: '就诊日期', type: 'date', listColumn: true },
            { key: 'diagnosis', label: '主要诊断', type: 'text', listColumn: true, missingCodes: ['UNK'] },
          ],
        },
      ],
    },
  ],
  missingCodes: [{ code: 'UNK', label: '不详' }],
};

export function buildPublished(definition: Definition = LIST_DEFINITION): PublishedResponse {
  return {
    own: { versionId: '0b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c11', versionNo: 2, projectId: 'p-1', definition },
    parent: null,
  };
}

export function buildCellError(overrides: Partial<ImportCellError> = {}): ImportCellError {
  return {
    row: 4,
    column: 'H',
    header: '体重',
    field: 'weight',
    value: '七十',
    message: '体重应为数字',
    ...overrides,
  };
}

export function buildImportReport(overrides: Partial<ImportReport> = {}): ImportReport {
  return {
    fileName: '患者导入.xlsx',
    versionNo: 2,
    rowCount: 3,
    newPatients: 2,
    existingPatients: 1,
    valueCount: 27,
    errors: [],
    ok: true,
    ...overrides,
  };
}
