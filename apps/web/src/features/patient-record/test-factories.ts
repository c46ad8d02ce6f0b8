import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import type {
  DataPointState,
  DataQueryVO,
  FormRecordVO,
  RecordHistoryResponse,
  RecordSummary,
  ValueVersionVO,
} from '@registry/shared/contracts/form-record';
import type { PatientVO } from '@registry/shared/contracts/patient';
import type { Definition } from '@registry/shared/forms/definition';

/** Realistic data of the record pages' tests: a heart-failure registry patient with vitals and follow-ups. */

export const PROJECT = { projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false };
export const PATIENT_ID = '9a3e6c1b-2f4d-4e8a-b1c7-5d6e7f8a9b01';
export const VITALS_ID = '4d1c2b3a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
export const FOLLOWUP_1_ID = '6f5e4d3c-2b1a-4c9d-8e7f-1a2b3c4d5e6f';
export const FOLLOWUP_2_ID = '7a6b5c4d-3e2f-4a1b-9c8d-2b3c4d5e6f7a';
export const VERSION_ID = '0b7f0a3e-64a4-4c5e-9d0f-3f1d2b7a1c11';

export const RECORD_DEFINITION: Definition = {
  categories: [
    {
      key: 'baseline',
      title: '基线资料',
      forms: [
        {
          key: 'vital_signs',
          title: '生命体征',
          fields: [
            { key: 'vs_date', label: '测量日期', type: 'date' },
            {
              key: 'weight',
              label: '体重',
              type: 'decimal',
              unit: 'kg',
              precision: 1,
              min: 20,
              max: 300,
              required: true,
            },
            {
              key: 'sbp',
              label: '收缩压',
              type: 'integer',
              unit: 'mmHg',
              normalLow: 90,
              normalHigh: 140,
              rules: [{ expr: '[sbp] < 200', message: '收缩压≥200，请核实', level: 'soft' }],
            },
            { key: 'note', label: '备注', type: 'text', maxLength: 200 },
          ],
        },
      ],
    },
    {
      key: 'followup',
      title: '随访',
      forms: [
        {
          key: 'followup_visit',
          title: '随访记录',
          followUp: true,
          repeating: true,
          fields: [
            { key: 'fu_date', label: '随访日期', type: 'date', required: true },
            {
              key: 'nt_probnp',
              label: 'NT-proBNP',
              type: 'decimal',
              unit: 'pg/mL',
              precision: 0,
              normalLow: 0,
              normalHigh: 125,
            },
          ],
        },
      ],
    },
  ],
  missingCodes: [{ code: 'UNK', label: '不详' }],
};

export function buildPublished(definition: Definition = RECORD_DEFINITION): PublishedResponse {
  return { own: { versionId: VERSION_ID, versionNo: 1, projectId: 'p-1', definition }, parent: null };
}

export function buildPatient(overrides: Partial<PatientVO> = {}): PatientVO {
  return {
    id: PATIENT_ID,
    patientNo: 'C01-0001',
    name: '张三',
    gender: '1',
    birthDate: '1958-05-12',
    hospitalNo: 'ZY20260001',
    idNumber: '110101195805120015',
    phone: '13800000001',
    masked: false,
    centerId: 'c-1',
    centerCode: 'C01',
    centerName: '示例第一人民医院',
    subProjectId: null,
    enrolDate: '2026-03-02',
    status: 'enrolled',
    rowVersion: 1,
    createdAt: '2026-03-01T02:00:00.000Z',
    updatedAt: '2026-03-01T02:00:00.000Z',
    ...overrides,
  };
}

export function buildRecord(overrides: Partial<FormRecordVO> = {}): FormRecordVO {
  return {
    id: VITALS_ID,
    patientId: PATIENT_ID,
    formKey: 'vital_signs',
    instance: 1,
    versionId: VERSION_ID,
    versionNo: 1,
    status: 'draft',
    rowVersion: 3,
    data: { vs_date: '2026-03-02', weight: 68.5, sbp: 128 },
    maskedPaths: [],
    issues: [],
    points: [],
    queries: [],
    createdAt: '2026-03-02T01:00:00.000Z',
    updatedAt: '2026-03-02T01:30:00.000Z',
    updatedByName: '李护士',
    submittedAt: null,
    submittedByName: null,
    verifiedAt: null,
    verifiedByName: null,
    lockedAt: null,
    lockedByName: null,
    ...overrides,
  };
}

export function buildSummary(overrides: Partial<RecordSummary> = {}): RecordSummary {
  return {
    id: VITALS_ID,
    formKey: 'vital_signs',
    instance: 1,
    versionId: VERSION_ID,
    status: 'draft',
    rowVersion: 3,
    filled: 3,
    total: 4,
    missingRequired: 0,
    softIssues: 0,
    openQueries: 0,
    createdAt: '2026-03-02T01:00:00.000Z',
    submittedAt: null,
    verifiedAt: null,
    lockedAt: null,
    updatedAt: '2026-03-02T01:30:00.000Z',
    updatedByName: '李护士',
    ...overrides,
  };
}

export function buildPoint(overrides: Partial<DataPointState> = {}): DataPointState {
  return {
    path: 'weight',
    versions: 1,
    lastAt: '2026-03-02T01:30:00.000Z',
    lastByName: '李护士',
    lastSource: 'manual',
    sdv: null,
    openQueries: 0,
    ...overrides,
  };
}

let versionId = 100;
export function buildVersion(overrides: Partial<ValueVersionVO> = {}): ValueVersionVO {
  versionId += 1;
  return {
    id: versionId,
    path: 'weight',
    value: 68.5,
    masked: false,
    reason: null,
    source: 'manual',
    sourceRef: null,
    recordRowVersion: 1,
    actorName: '李护士',
    at: '2026-03-02T01:00:00.000Z',
    sdv: null,
    ...overrides,
  };
}

export function buildQuery(overrides: Partial<DataQueryVO> = {}): DataQueryVO {
  return {
    id: '8b7a6c5d-4e3f-4a2b-8c1d-3c4d5e6f7a8b',
    recordId: VITALS_ID,
    formKey: 'vital_signs',
    instance: 1,
    path: 'weight',
    origin: 'manual',
    message: '与门诊病历记录不一致，请核实',
    status: 'open',
    raisedByName: '赵监查',
    raisedAt: '2026-03-05T06:00:00.000Z',
    answer: null,
    answeredByName: null,
    answeredAt: null,
    closedByName: null,
    closedAt: null,
    closeNote: null,
    ...overrides,
  };
}

export function buildHistory(overrides: Partial<RecordHistoryResponse> = {}): RecordHistoryResponse {
  return {
    recordId: VITALS_ID,
    formKey: 'vital_signs',
    instance: 1,
    patientId: PATIENT_ID,
    versions: [],
    queries: [],
    ...overrides,
  };
}
