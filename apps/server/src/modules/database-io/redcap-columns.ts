/**
 * The columns of a REDCap data dictionary and how its header cells are matched to them; a data row read through them.
 */

/**
 * Columns of the REDCap data dictionary in REDCap's order, each with the normalized names it is known by (the header
 * lowercased, anything but letters and digits turned into single spaces): the names of the Data Dictionary download
 * (`Variable / Field Name`), of the API's metadata export (`field_name`, `select_choices_or_calculations`) and older
 * or hand-edited variants. A header matches a name when it starts with it.
 */
export const COLUMNS = {
  variable: ['variable', 'field name'],
  form: ['form name', 'form'],
  section: ['section header'],
  type: ['field type'],
  label: ['field label'],
  choices: ['choices', 'select choices'],
  note: ['field note'],
  validation: ['text validation type'],
  min: ['text validation min'],
  max: ['text validation max'],
  identifier: ['identifier'],
  branching: ['branching logic'],
  required: ['required field'],
  alignment: ['custom alignment'],
  questionNumber: ['question number'],
  matrixGroup: ['matrix group'],
  matrixRanking: ['matrix ranking'],
  annotation: ['field annotation'],
} as const;
export type ColumnId = keyof typeof COLUMNS;
/** The header as REDCap writes it, for notes. */
export const HEADER_NAMES: Record<ColumnId, string> = {
  variable: 'Variable / Field Name',
  form: 'Form Name',
  section: 'Section Header',
  type: 'Field Type',
  label: 'Field Label',
  choices: 'Choices, Calculations, OR Slider Labels',
  note: 'Field Note',
  validation: 'Text Validation Type OR Show Slider Number',
  min: 'Text Validation Min',
  max: 'Text Validation Max',
  identifier: 'Identifier?',
  branching: 'Branching Logic (Show field only if...)',
  required: 'Required Field?',
  alignment: 'Custom Alignment',
  questionNumber: 'Question Number (surveys only)',
  matrixGroup: 'Matrix Group Name',
  matrixRanking: 'Matrix Ranking?',
  annotation: 'Field Annotation',
};

/** A data row of the dictionary: its row number in the file (the header is row 1) and its trimmed cells. */
export type Row = { rowNo: number; get(column: ColumnId): string };

const normalizeHeader = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Header cells → columns: by normalized name first; then a required column still missing takes the unnamed cell at
 * its place in REDCap's order, when the header otherwise follows that order (at least three other columns where
 * REDCap puts them).
 */
export function matchHeader(header: string[]): { index: Map<ColumnId, number>; byPosition: [ColumnId, string][] } {
  const index = new Map<ColumnId, number>();
  const claimed = new Set<number>();
  header.forEach((name, i) => {
    const norm = normalizeHeader(name);
    if (!norm) return;
    for (const [id, names] of Object.entries(COLUMNS) as [ColumnId, readonly string[]][]) {
      if (index.has(id) || !names.some((n) => norm === n || norm.startsWith(`${n} `))) continue;
      index.set(id, i);
      claimed.add(i);
      break;
    }
  });
  const order = Object.keys(COLUMNS) as ColumnId[];
  const inPlace = [...index].filter(([id, i]) => order.indexOf(id) === i).length;
  const byPosition: [ColumnId, string][] = [];
  if (inPlace >= 3)
    for (const id of ['variable', 'form', 'type', 'label'] as const) {
      const at = order.indexOf(id);
      if (index.has(id) || claimed.has(at) || at >= header.length) continue;
      index.set(id, at);
      claimed.add(at);
      byPosition.push([id, (header[at] ?? '').trim()]);
    }
  return { index, byPosition };
}
