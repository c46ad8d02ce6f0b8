import type {
  DraftResponse,
  PublishedVersion,
  VersionDetailResponse,
  VersionSummary,
} from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import { countDataFields, listForms } from '@registry/shared/forms/walk';
import type { DraftRow, VersionRow } from '../../domain/crf/crf-definition.repository';

/** Forms and data fields of a definition (group columns counted, the group itself and layout fields not). */
export function definitionCounts(definition: Definition): { formCount: number; fieldCount: number } {
  return { formCount: listForms(definition).length, fieldCount: countDataFields(definition) };
}

export function presentVersionSummary(row: VersionRow): VersionSummary {
  return {
    id: row.id,
    versionNo: row.versionNo,
    note: row.note,
    publishedAt: row.publishedAt.toISOString(),
    publishedBy: row.publishedBy,
    publishedByName: row.publishedByName,
    changeCount: row.changes.length,
    ...definitionCounts(row.definition),
  };
}

export function presentVersionDetail(row: VersionRow): VersionDetailResponse {
  return { ...presentVersionSummary(row), definition: row.definition, changes: row.changes };
}

export function presentPublished(row: VersionRow | undefined): PublishedVersion | null {
  return row
    ? { versionId: row.id, versionNo: row.versionNo, projectId: row.projectId, definition: row.definition }
    : null;
}

export function presentDraft(
  draft: DraftRow,
  extra: Pick<DraftResponse, 'problems' | 'unpublishedChanges' | 'latestVersion' | 'parent'>,
): DraftResponse {
  return {
    projectId: draft.projectId,
    revision: draft.revision,
    definition: draft.definition,
    updatedAt: draft.updatedAt.toISOString(),
    updatedByName: draft.updatedByName,
    ...extra,
  };
}
