/**
 * What every export format writer takes: a table description and its rows. The writers are pure of the database: a job
 * feeds them rows from a cursor and hands them the stream of the object it writes (issue 15).
 *
 * Layout of an export (issue 15): one table of one row per patient, and one table per repeating form keyed by patient
 * and instance. Values are chosen upstream (codes or labels); the writers only format them.
 */

/**
 * One variable (column). `type` decides how the writers type a cell:
 * - `number`: a JS number (or a numeric literal string, written as it is);
 * - `string`: text;
 * - `date`: `YYYY-MM-DD`;
 * - `datetime`: `YYYY-MM-DD HH:MM:SS`, the registry's wall-clock time (no zone; the syntax files read it as such). A
 *   record's stored form `YYYY-MM-DDTHH:MM` is accepted too: exportDateTime turns it into this one (the statistics data
 *   files do so themselves; the XLSX writer reads both).
 */
export type ExportVariableType = 'number' | 'string' | 'date' | 'datetime';

export type ExportValueLabel = { code: string; label: string };

export type ExportVariable = {
  /** The field key (lower snake case in the registry, the REDCap rule); made safe per target by variableNames. */
  name: string;
  /** The field's Chinese label. */
  label: string;
  type: ExportVariableType;
  /**
   * The option list of a coded field, for the value labels of the statistics packages (SPSS, Stata, SAS, R). Leave it
   * out when the rows hold labels instead of codes.
   */
  valueLabels?: readonly ExportValueLabel[];
  /**
   * The longest string value in UTF-8 bytes (e.g. `max(octet_length(...))` of the query), for the string widths of
   * SPSS and SAS; without it they read strings of DEFAULT_STRING_BYTES.
   */
  width?: number;
  /** Decimal places shown for a number (SPSS/SAS/Stata display format); without it NUMBER_DECIMALS. */
  decimals?: number;
};

export type ExportTable = {
  /** File-safe name, used for file names and data set names: `[A-Za-z0-9_-]`, e.g. `patients`, `medications`. */
  name: string;
  /** A title for the data set label (e.g. the form's title). */
  label?: string;
  variables: readonly ExportVariable[];
};

/** One row: one value per variable, in the order of `variables`; null is missing. */
export type ExportValue = string | number | null;
export type ExportRow = readonly ExportValue[];
export type ExportRows = AsyncIterable<ExportRow> | Iterable<ExportRow>;

/** What a writer reports once the stream is finished. */
export type ExportWriteResult = { rows: number; bytes: number; sha256: string };

/** String width (bytes) the SPSS and SAS syntax reads when the variable's width is unknown: 500 Chinese characters. */
export const DEFAULT_STRING_BYTES = 1500;
/** Decimal places shown for numbers whose `decimals` is unknown. */
export const NUMBER_DECIMALS = 4;

export type StatTarget = 'spss' | 'stata' | 'sas' | 'r';

/**
 * The rules of a variable name per target. All targets get `[A-Za-z0-9_]` and a letter first, which every one of them
 * accepts (SPSS also allows `@#$.` and non-ASCII letters, R dots; we use none of them).
 * - SPSS (Command Syntax Reference, "Variable names"): at most 64 bytes; not case-sensitive; reserved keywords ALL AND
 *   BY EQ GE GT LE LT NE NOT OR TO WITH.
 * - Stata (User's Guide §11.3 "Naming conventions"): at most 32 characters; case-sensitive; reserved `_all _b byte
 *   _coef _cons double float if in int long _n _N _pi _pred _rc _skip strL using with` and `str1`…`str2045`.
 * - SAS (SAS Language Reference, "Names in the SAS language"): at most 32 characters; not case-sensitive; the automatic
 *   and special names `_N_ _ERROR_ _ALL_ _CHARACTER_ _CHAR_ _NUMERIC_ _IORC_ _INFILE_ _FILE_ _TEMPORARY_ _NULL_`.
 * - R (?Reserved): no length limit; the reserved words `if else repeat while function for in next break TRUE FALSE
 *   NULL Inf NaN NA NA_integer_ NA_real_ NA_character_ NA_complex_`.
 * Names are compared case-insensitively for every target (stricter than Stata and R need), so the same key set gives
 * names that differ in more than case.
 */
const RULES: Record<StatTarget, { maxBytes: number; reserved: readonly string[]; reservedPattern?: RegExp }> = {
  spss: { maxBytes: 64, reserved: ['all', 'and', 'by', 'eq', 'ge', 'gt', 'le', 'lt', 'ne', 'not', 'or', 'to', 'with'] },
  stata: {
    maxBytes: 32,
    reserved: [
      '_all',
      '_b',
      'byte',
      '_coef',
      '_cons',
      'double',
      'float',
      'if',
      'in',
      'int',
      'long',
      '_n',
      '_pi',
      '_pred',
      '_rc',
      '_skip',
      'strl',
      'using',
      'with',
    ],
    reservedPattern: /^str\d+$/i,
  },
  sas: {
    maxBytes: 32,
    reserved: [
      '_n_',
      '_error_',
      '_all_',
      '_character_',
      '_char_',
      '_numeric_',
      '_iorc_',
      '_infile_',
      '_file_',
      '_temporary_',
      '_null_',
    ],
  },
  r: {
    maxBytes: 10000,
    reserved: [
      'if',
      'else',
      'repeat',
      'while',
      'function',
      'for',
      'in',
      'next',
      'break',
      'true',
      'false',
      'null',
      'inf',
      'nan',
      'na',
      'na_integer_',
      'na_real_',
      'na_character_',
      'na_complex_',
    ],
  },
};

const isReserved = (target: StatTarget, name: string) => {
  const rule = RULES[target];
  return rule.reserved.includes(name.toLowerCase()) || (rule.reservedPattern?.test(name) ?? false);
};

/** A name made of `[A-Za-z0-9_]` beginning with a letter (`v` put before anything else), at most `max` characters. */
function baseName(key: string, max: number): string {
  let name = key.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z]/.test(name)) name = `v${name}`;
  return name.slice(0, max);
}

export type VariableNames = {
  /** The safe name of each variable, in the order of `variables`. */
  names: string[];
  /** The variables whose name changed: the mapping a reader needs (and the syntax files print as comments). */
  renamed: { from: string; to: string }[];
};

/**
 * Safe and unique names of the table's variables for a statistics package (see RULES). A name is kept when it is
 * already safe; otherwise unsafe characters become `_`, a `v` goes before a name not starting with a letter, a
 * reserved word gets a `_` after it, and a name taken by an earlier variable gets `_2`, `_3`, … (the base cut so that
 * the suffix fits). Deterministic: the same variables give the same names.
 */
export function variableNames(variables: readonly ExportVariable[], target: StatTarget): VariableNames {
  const { maxBytes } = RULES[target];
  const taken = new Set<string>();
  const names: string[] = [];
  const renamed: { from: string; to: string }[] = [];
  for (const variable of variables) {
    let base = baseName(variable.name, maxBytes);
    if (isReserved(target, base)) base = `${base.slice(0, maxBytes - 1)}_`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()) || isReserved(target, name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, maxBytes - suffix.length)}${suffix}`;
    }
    taken.add(name.toLowerCase());
    names.push(name);
    if (name !== variable.name) renamed.push({ from: variable.name, to: name });
  }
  return { names, renamed };
}

/** A file-safe name: what is not `[A-Za-z0-9_-]` becomes `_` (the table name is already safe; this makes sure). */
export function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_') || 'data';
}

const STORED_DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?$/;

/** A date-time as the exports write it, `YYYY-MM-DD HH:MM:SS` (from a record's `YYYY-MM-DDTHH:MM`); others unchanged. */
export function exportDateTime(value: string): string {
  const m = STORED_DATETIME.exec(value);
  return m ? `${m[1]} ${m[2]}${m[3] ?? ':00'}` : value;
}
