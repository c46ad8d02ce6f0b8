import type { Writable } from 'node:stream';
import { writeCsv } from './csv-writer';
import {
  exportDateTime,
  fileSafe,
  variableNames,
  type ExportRow,
  type ExportRows,
  type ExportTable,
  type ExportWriteResult,
  type StatTarget,
  type VariableNames,
} from './export-table';
import { rSyntax } from './r-syntax';
import { sasSyntax } from './sas-syntax';
import { spssSyntax } from './spss-syntax';
import { stataSyntax } from './stata-syntax';

/**
 * The statistics-package exports, as REDCap makes them: per table a CSV data file and a syntax file that reads it and
 * applies the variable and value labels (SPSS .sps, Stata .do, SAS .sas, R .r). The data file is the CSV of
 * csv-writer.ts with the package's safe variable names in the first row, no formula guard (the packages read values,
 * and a `'` would become part of them) and line breaks inside text as spaces (SPSS and Stata cannot read a quoted line
 * break; REDCap flattens them too). The syntax is a pure function of the table description, so it is written before
 * or after the data, never from the rows.
 */

export const SYNTAX_EXTENSIONS: Record<StatTarget, string> = { spss: 'sps', stata: 'do', sas: 'sas', r: 'r' };

const GENERATORS: Record<StatTarget, (table: ExportTable, dataFile: string, names: VariableNames) => string> = {
  spss: spssSyntax,
  stata: stataSyntax,
  sas: sasSyntax,
  r: rSyntax,
};

export type StatsFiles = {
  /** e.g. `patients_spss.csv`. */
  dataFile: string;
  /** e.g. `patients_spss.sps`. */
  syntaxFile: string;
  syntax: string;
  names: VariableNames;
};

/** The file names, the variable names and the syntax of one table for one package. */
export function statsFiles(table: ExportTable, target: StatTarget): StatsFiles {
  const base = `${fileSafe(table.name)}_${target}`;
  const names = variableNames(table.variables, target);
  const dataFile = `${base}.csv`;
  return {
    dataFile,
    syntaxFile: `${base}.${SYNTAX_EXTENSIONS[target]}`,
    syntax: GENERATORS[target](table, dataFile, names),
    names,
  };
}

/** The rows with their date-times as the syntax files read them (exportDateTime). */
async function* withExportDateTimes(table: ExportTable, rows: ExportRows): AsyncGenerator<ExportRow> {
  const columns = table.variables.flatMap((v, i) => (v.type === 'datetime' ? [i] : []));
  for await (const row of rows) {
    if (columns.length === 0) {
      yield row;
      continue;
    }
    const copy = [...row];
    for (const i of columns) {
      const value = copy[i];
      if (typeof value === 'string') copy[i] = exportDateTime(value);
    }
    yield copy;
  }
}

/** Writes the data file of `statsFiles(table, target)` into `out` (ended at the end). */
export function writeStatsData(
  table: ExportTable,
  rows: ExportRows,
  out: Writable,
  target: StatTarget,
  names: VariableNames = variableNames(table.variables, target),
): Promise<ExportWriteResult> {
  return writeCsv(table, withExportDateTimes(table, rows), out, {
    header: names.names,
    formulaGuard: false,
    flattenLineBreaks: true,
  });
}
