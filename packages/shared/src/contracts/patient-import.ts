import { z } from 'zod';

/**
 * Patients and their CRF data from Excel (`/patient/list` → 导入). Base `patient-import`, permission `patient.add`
 * (and `patient.edit` to change existing patients).
 *
 * - `GET patient-import/template`: an .xlsx generated from the current published version: sheet 患者数据 with the
 *   demographic columns and one column per data field of the non-repeating forms (labels in row 1, variable keys in
 *   row 2, data from row 3; choice fields with an option list, dates as dates), and a sheet 填写说明.
 * - `POST patient-import/dry-run` (multipart `file`): checks every cell with the form engine and the patient rules and
 *   writes nothing; the report lists every bad cell.
 * - `POST patient-import/commit` (multipart `file`): the same checks, then all rows in one transaction, or nothing
 *   (400 with the report's errors as `issues`). A row whose 住院号 or 患者编号 names an existing patient fills that
 *   patient's forms; otherwise it creates a patient. Each imported value's source is the batch, file and row.
 */
export const importCellError = z.object({
  /** The sheet's row number as Excel shows it (data starts at row 3). */
  row: z.number().int(),
  /** The column letter (`C`) and its header. */
  column: z.string(),
  header: z.string(),
  /** The variable key (`weight`, or a demographic: `name`, `hospitalNo` ...); null for a whole-row problem. */
  field: z.string().nullable(),
  /** What the cell holds, as text (masked for identity numbers and phones). */
  value: z.string().nullable(),
  message: z.string(),
});
export type ImportCellError = z.infer<typeof importCellError>;

export const importReport = z.object({
  fileName: z.string(),
  /** The published version the file was checked against. */
  versionNo: z.number().int(),
  rowCount: z.number().int(),
  newPatients: z.number().int(),
  existingPatients: z.number().int(),
  /** Values that would be written. */
  valueCount: z.number().int(),
  errors: z.array(importCellError),
  /** No error: the commit will write every row. */
  ok: z.boolean(),
});
export type ImportReport = z.infer<typeof importReport>;

export const importCommitResponse = z.object({
  batchId: z.string(),
  rowCount: z.number().int(),
  createdPatients: z.number().int(),
  updatedPatients: z.number().int(),
  valueCount: z.number().int(),
});
export type ImportCommitResponse = z.infer<typeof importCommitResponse>;
