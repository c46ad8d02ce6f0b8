import type { RecordSummary } from '@registry/shared/contracts/form-record';

/** The instances of each form, in order. */
export function recordsByForm(records: readonly RecordSummary[]): Map<string, RecordSummary[]> {
  const out = new Map<string, RecordSummary[]>();
  for (const record of records) {
    const list = out.get(record.formKey);
    if (list) list.push(record);
    else out.set(record.formKey, [record]);
  }
  for (const list of out.values()) list.sort((a, b) => a.instance - b.instance);
  return out;
}
