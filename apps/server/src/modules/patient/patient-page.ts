import { createHash } from 'node:crypto';
import {
  PATIENT_SORT_FIELDS,
  type PatientPageResponse,
  type patientPageRequest,
} from '@registry/shared/contracts/patient';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { existingDictOptions, dictOptionKey, latestVersionIds } from '../../domain/crf/crf-definition.repository';
import { createDefinitionCache } from '../../domain/crf/definition-cache';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { blindIndex, type PhiKeys } from '../../lib/phi-crypto';
import type { AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { hasPii, M, piiRead } from './patient-checks';
import {
  checkFieldQuery,
  LIST_FIELD_MESSAGES,
  listColumnFields,
  pickFieldValues,
  type ListField,
} from './patient-list-fields';
import { presentPatient } from './patient.presenter';
import { pagePatients, type ListPosition, type ListTotal, type PatientCrfQuery } from './patient.repository';

/**
 * The patient list's page: filters checked against the masking policy, the CRF list fields (patient-list-fields.ts),
 * keyset paging by a cursor, totals counted once per 30 seconds, one `patient.pii_read` event per unmasked page.
 */

type PageInput = z.output<typeof patientPageRequest>;

/**
 * The totals of patient lists (scope and filters, keyed by project id) counted in the last 30 seconds: paging through
 * a list counts it once, not on every click. Whatever adds, edits or removes patients calls forgetPatientListTotals
 * (this service does; so must an import); a change made by another server instance shows in a total within 30 seconds
 * (the rows themselves are always read fresh).
 */
const totals = new Map<string, { total: ListTotal; until: number }>();
export function forgetPatientListTotals(): void {
  totals.clear();
}

/** `nextCursor`: the last row's position and the list it belongs to, base64url JSON (not a secret, not trusted). */
function encodeListCursor(at: ListPosition, listKey: string): string {
  return Buffer.from(JSON.stringify({ s: at.seq, n: at.isNull ? 1 : 0, k: listKey })).toString('base64url');
}

/** The position of a cursor of this list; a malformed cursor is a 400, another list's is ignored. */
function decodeListCursor(cursor: string, listKey: string): ListPosition | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const c = parsed as { s?: unknown; n?: unknown; k?: unknown } | undefined;
  if (
    typeof c !== 'object' ||
    c === null ||
    !Number.isInteger(c.s) ||
    (c.s as number) < 1 ||
    (c.n !== 0 && c.n !== 1) ||
    typeof c.k !== 'string'
  )
    throw new AppError(400, M.badCursor, [{ path: 'cursor', message: M.badCursor }]);
  return c.k === listKey ? { seq: c.s as number, isNull: c.n === 1 } : undefined;
}

export function createPatientPage(deps: { db: Db; clock: Clock; keys: PhiKeys }) {
  const { db, clock, keys } = deps;
  /** Published versions are immutable: parsed once, and their list fields computed once per set of version ids. */
  const definitions = createDefinitionCache();
  const listFields = new Map<string, ListField[]>();
  const countedOnce =
    (key: string) =>
    async (count: () => Promise<ListTotal>): Promise<ListTotal> => {
      const now = clock.now().getTime();
      const hit = totals.get(key);
      if (hit && hit.until > now) return hit.total;
      const total = await count();
      totals.set(key, { total, until: now + 30_000 });
      if (totals.size > 1000) totals.delete(totals.keys().next().value ?? '');
      return total;
    };

  /**
   * The CRF side of a page: the list fields of the published definitions (the project's, and the parent's for a
   * sub-project), the checked `fieldFilters` and `field:<key>` sort (400 naming a key that is not a list field; a
   * dictionary code must be an enabled option of its list).
   */
  async function listQuery(
    scope: ProjectScope,
    q: PageInput,
    pii: boolean,
    ids: readonly string[],
  ): Promise<PatientCrfQuery> {
    // The immutable versions and their list fields from memory.
    const fieldsKey = ids.join(',');
    let fields = listFields.get(fieldsKey);
    if (!fields) {
      const versions = await definitions.load(db, scope.tenantId, ids);
      fields = listColumnFields(ids.flatMap((id) => versions.get(id)?.definition ?? []));
      listFields.set(fieldsKey, fields);
      if (listFields.size > 200) listFields.delete(listFields.keys().next().value ?? '');
    }
    const checked = checkFieldQuery(fields, q.fieldFilters ?? [], q.sortField, pii);
    if (checked.dictCodes.length > 0) {
      const known = await existingDictOptions(db, scope.tenantId, checked.dictCodes);
      const issues = checked.dictCodes
        .filter((d) => !known.has(dictOptionKey(d.dictCode, d.code)))
        .map((d) => ({ path: `fieldFilters.${d.index}.value`, message: LIST_FIELD_MESSAGES.option(d.label, d.code) }));
      if (issues.length > 0) throw new AppError(400, issues[0]?.message ?? M.invalid, issues);
    }
    return { fields, conditions: checked.conditions, ...(checked.sort ? { sortField: checked.sort } : {}) };
  }

  return async function page(auth: AuthContext, q: PageInput, ctx: AuditContext): Promise<PatientPageResponse> {
    const scope = await requireProjectScope(db, auth);
    const pii = hasPii(scope);
    if (!pii && q.idNumber) throw new AppError(403, M.piiSearch);
    // one masking policy (shared/phi-mask.ts): a value shown masked can be neither filtered nor sorted on, else a
    // prefix or an order would reveal it
    if (!pii && q.hospitalNo) throw new AppError(403, M.piiHospitalNoFilter);
    if (!pii && q.sortField === 'hospitalNo') throw new AppError(403, M.piiHospitalNoSort);
    const filter = {
      keyword: q.keyword || undefined,
      piiSearch: pii,
      hospitalNo: q.hospitalNo || undefined,
      idNumberBi: q.idNumber ? blindIndex(keys, q.idNumber) : undefined,
      centerId: q.centerId,
      status: q.status,
      enrolDateFrom: q.enrolDateFrom,
      enrolDateTo: q.enrolDateTo,
      ...(q.followupStatus ? { followup: { status: q.followupStatus, today: shanghaiDate(clock.now()) } } : {}),
    };
    // The ids of the latest published versions: read with the session, else while the transaction begins.
    const known = auth.currentProject?.id === scope.projectId ? auth.currentProject.latestVersionIds : undefined;
    const versionIds = known
      ? Promise.resolve(known)
      : latestVersionIds(
          db,
          scope.tenantId,
          scope.rootProjectId !== scope.projectId ? [scope.projectId, scope.rootProjectId] : [scope.projectId],
        );
    versionIds.catch(() => undefined); // awaited in the transaction; never an unhandled rejection meanwhile
    const sortField = PATIENT_SORT_FIELDS.find((f) => f === q.sortField);
    // A cursor belongs to one list: the scope, filters and sort it was made for (else ignored: OFFSET paging).
    const listKey = createHash('sha256')
      .update(
        JSON.stringify([
          scope.projectId,
          scope.centerId,
          filter,
          q.fieldFilters ?? [],
          q.sortField ?? 'createdAt',
          q.sortOrder ?? 'desc',
        ]),
      )
      .digest('base64url')
      .slice(0, 12);
    const after = q.cursor && q.current > 1 ? decodeListCursor(q.cursor, listKey) : undefined;
    const totalKey = JSON.stringify([scope.projectId, scope.centerId, filter, q.fieldFilters ?? []]);
    const paging = { current: q.current, size: q.size, sortField, sortOrder: q.sortOrder, after };
    // The read and its audit event share one transaction: no unmasked page leaves without its event.
    let crf: PatientCrfQuery = { fields: [], conditions: [] };
    const { records, total, totalExact, next, values } = await db.transaction(async (tx) => {
      crf = await listQuery(scope, q, pii, await versionIds);
      const result = await pagePatients(tx, scope, filter, paging, crf, countedOnce(totalKey));
      if (pii && result.records.length > 0)
        await piiRead(
          tx,
          ctx,
          result.records.map((r) => r.id),
          null,
          clock.now(),
        );
      return result;
    });
    return {
      records: records.map((r) => ({
        ...presentPatient(r, keys, pii),
        fields: pickFieldValues(crf.fields, values.get(r.id) ?? new Map(), pii),
      })),
      total,
      totalExact,
      nextCursor: next ? encodeListCursor(next, listKey) : null,
      current: q.current,
      size: q.size,
    };
  };
}
