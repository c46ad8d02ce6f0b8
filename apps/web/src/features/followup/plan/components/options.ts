import { CONTACT_METHOD_LABELS, CONTACT_METHODS } from '@registry/shared/contracts/followup-codes';
import { OFFSET_UNIT_LABELS, OFFSET_UNITS } from '@registry/shared/followup/schedule';

export const DATE_FORMAT = 'YYYY-MM-DD';
export const UNIT_OPTIONS = OFFSET_UNITS.map((u) => ({ value: u, label: OFFSET_UNIT_LABELS[u] }));
export const METHOD_OPTIONS = CONTACT_METHODS.map((m) => ({ value: m, label: CONTACT_METHOD_LABELS[m] }));
