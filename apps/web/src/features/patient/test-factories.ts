import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import type { ImportCellError, ImportReport } from '@registry/shared/contracts/patient-import';
import type { PatientListItem, PatientVO } from '@registry/shared/contracts/patient';
import type { Definition } from '@registry/shared/forms/definition';
import { buildPatient } from '../../components/patient-form/test-factories';

export { buildCenter, buildPatient } from '../../components/patient-form/test-factories';

/** Realistic data of the patient pages' tests (the demo project 心衰登记 at two centers). */

export const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };

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
