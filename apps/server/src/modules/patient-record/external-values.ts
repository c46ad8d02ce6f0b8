import type { PublishedVersion } from '../../domain/crf/definition-cache';
import type { ContextRecord } from './patient-record.repository';

/** Cross-form values: the data of the patient's other non-repeating forms. */
export function externalOf(
  records: readonly Pick<ContextRecord, 'formKey' | 'instance' | 'versionId' | 'data'>[],
  versions: ReadonlyMap<string, PublishedVersion>,
  formKey: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of records) {
    if (r.formKey === formKey || r.instance !== 1) continue;
    const form = versions.get(r.versionId)?.forms.get(r.formKey);
    if (!form || form.repeating) continue;
    Object.assign(out, r.data);
  }
  return out;
}
