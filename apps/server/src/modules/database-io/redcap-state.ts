import type { FieldDefinition, FormDefinition } from '@registry/shared/forms/definition';
import type { Row } from './redcap-columns';
import type { RedcapReport } from './redcap-report';

/** What the steps of a REDCap import build up, row by row, and hand on to the next step. */

/** Branching logic or a calculation, translated once every field exists (it may name a later field). */
export type PendingLogic = {
  row: Row;
  field: FieldDefinition;
  form: FormDefinition;
  column: 'branching' | 'choices';
  src: string;
};

export type ImportState = {
  report: RedcapReport;
  /** Every key given out (fields and sections), the key of each variable (lowercased) and of each row. */
  takenKeys: Set<string>;
  keyOf: Map<string, string>;
  rowKey: Map<Row, string>;
  /** The forms in file order, by their REDCap name, and their keys. */
  forms: FormDefinition[];
  formByName: Map<string, FormDefinition>;
  takenFormKeys: Set<string>;
  /** Per variable (lowercased), the option codes renamed: REDCap code → ours (for `[field(code)]` in logic). */
  choiceCodes: Map<string, Map<string, string>>;
  fieldByKey: Map<string, FieldDefinition>;
  /** Rows with a custom alignment (one note for all), matrix groups already noted. */
  alignmentRows: number[];
  matrixNoted: Set<string>;
  pendingLogic: PendingLogic[];
  /** Choice fields with their row and form key (their codes are checked against the missing-data codes). */
  optionFields: [Row, FieldDefinition, string][];
};

export function createState(report: RedcapReport): ImportState {
  return {
    report,
    takenKeys: new Set(),
    keyOf: new Map(),
    rowKey: new Map(),
    forms: [],
    formByName: new Map(),
    takenFormKeys: new Set(),
    choiceCodes: new Map(),
    fieldByKey: new Map(),
    alignmentRows: [],
    matrixNoted: new Set(),
    pendingLogic: [],
    optionFields: [],
  };
}

/** One row being made a field: its cells as the type step reads them, and whether its min/max were used. */
export type FieldContext = {
  state: ImportState;
  row: Row;
  form: FormDefinition;
  field: FieldDefinition;
  /** The form and field keys every note of the row carries. */
  at: { formKey: string; fieldKey: string };
  variable: string;
  /** The field type and validation, lowercased. */
  redcapType: string;
  validation: string;
  choices: string;
  min: string;
  max: string;
  rangeUsed: boolean;
};
