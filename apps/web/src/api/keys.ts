import type { RecordDetailQuery } from '@registry/shared/contracts/form-record';
import type { MigrationSelection } from '@registry/shared/contracts/record-migration';
import type { AreaPageRequest, DictOptionPageRequest } from '@registry/shared/contracts/dictionary';

/**
 * The query keys of the calls several features share (`src/api/*`): one factory, so every feature reads, and
 * invalidates, the same cache entry. A feature's own calls keep their keys beside them (`features/<area>/api/`).
 */
export const queryKeys = {
  centers: {
    all: ['project-center'] as const,
    list: ['project-center', 'list'] as const,
  },
  formDefinitions: {
    published: ['form-definition', 'published'] as const,
    publishedVersion: (id: string | null) => ['form-definition', 'published-version', id] as const,
  },
  formRecords: {
    /** One record: the same in every feature, so they share (and invalidate) one cache entry. */
    detail: (query: RecordDetailQuery) =>
      ['form-record', 'detail', query.patientId, query.formKey, query.instance ?? 1] as const,
    migrationPreview: (selection: MigrationSelection) => ['form-record', 'migration', selection] as const,
  },
  followupPlans: {
    list: ['followup', 'plan', 'list'] as const,
  },
  projects: {
    current: ['web-project', 'current'] as const,
    ensureCurrent: (projectId: string | null | undefined) => ['web-project', 'ensure-current', projectId] as const,
    tenantDoctors: ['web-project', 'tenant-doctors'] as const,
  },
  dicts: {
    all: ['sys-field-dict'] as const,
    list: ['sys-field-dict', 'list'] as const,
  },
  dictOptions: {
    all: ['sys-field-dict-option'] as const,
    page: (body: Partial<DictOptionPageRequest>) => ['sys-field-dict-option', 'page', body] as const,
  },
  areas: {
    page: (body: Partial<AreaPageRequest>) => ['sys-area', 'page', body] as const,
  },
  user: {
    info: ['sys-user', 'user-info'] as const,
  },
};
