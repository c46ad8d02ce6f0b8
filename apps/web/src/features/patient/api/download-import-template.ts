import { downloadFile } from '../../../lib/download';

/** `GET patient-import/template`: the .xlsx template of the published version, saved under the server's name. */
export function downloadImportTemplate(): Promise<void> {
  return downloadFile({ method: 'get', url: '/patient-import/template' }, '患者导入模板.xlsx');
}
