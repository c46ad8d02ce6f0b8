import type { ImportNote } from '@registry/shared/contracts/form-definition';
import type { Definition } from '@registry/shared/forms/definition';
import type { CsvDelimiter, TextEncodingName } from '../../lib/text-encoding';
import { HEADER_NAMES, type ColumnId, type Row } from './redcap-columns';

/** The report of a REDCap import: its notes (each with its row, column and source) and the counts of the summary. */

export type RedcapImportSummary = {
  /** Data rows of the file (the header excluded). */
  rows: number;
  /** Rows with branching logic, and how many of those were translated. */
  branching: number;
  branchingTranslated: number;
  /** Calculated fields, and how many formulas were translated. */
  calcs: number;
  calcsTranslated: number;
  /** The file's encoding (converted to UTF-8) and field separator, as detected. */
  encoding: TextEncodingName;
  delimiter: CsvDelimiter;
};
export type RedcapImport = { definition: Definition | null; notes: ImportNote[]; summary: RedcapImportSummary };

export type NoteExtra = {
  column?: ColumnId;
  formKey?: string | null;
  fieldKey?: string | null;
  source?: string | null;
};

export type RedcapReport = {
  notes: ImportNote[];
  summary: RedcapImportSummary;
  /** A note on a row (or on the file): its message led by the row and the column as REDCap names it. */
  note(row: Row | null, severity: ImportNote['severity'], message: string, extra?: NoteExtra): void;
  /** The import refused: no definition, one error note. */
  fatal(message: string, row?: number | null): RedcapImport;
};

export function createReport(): RedcapReport {
  const notes: ImportNote[] = [];
  const summary: RedcapImportSummary = {
    rows: 0,
    branching: 0,
    branchingTranslated: 0,
    calcs: 0,
    calcsTranslated: 0,
    encoding: 'UTF-8',
    delimiter: ',',
  };
  return {
    notes,
    summary,
    note: (row, severity, message, extra = {}) => {
      notes.push({
        row: row?.rowNo ?? null,
        formKey: extra.formKey ?? null,
        fieldKey: extra.fieldKey ?? null,
        column: extra.column ? HEADER_NAMES[extra.column] : null,
        severity,
        message: `${row ? `第 ${row.rowNo} 行` : ''}${extra.column ? `「${HEADER_NAMES[extra.column]}」` : ''}${row || extra.column ? '：' : ''}${message}`,
        source: extra.source ?? null,
      });
    },
    fatal: (message, row = null) => ({
      definition: null,
      notes: [{ row, formKey: null, fieldKey: null, column: null, severity: 'error', message, source: null }],
      summary,
    }),
  };
}
