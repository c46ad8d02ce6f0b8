import { downloadFile } from '../../../lib/download';

export type ExportFormat = 'excel' | 'odm';

const FALLBACK_NAMES: Record<ExportFormat, string> = {
  excel: '数据字典.xlsx',
  odm: 'odm.xml',
};

/** `GET form-definition/export/excel|odm?versionId=` (the draft without a version): saved as a file. */
export function exportDefinition(format: ExportFormat, versionId?: string): Promise<void> {
  return downloadFile(
    { method: 'get', url: `/form-definition/export/${format}`, params: versionId ? { versionId } : {} },
    FALLBACK_NAMES[format],
  );
}
