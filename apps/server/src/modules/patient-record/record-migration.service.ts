import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { RecordStatus } from '@registry/shared/contracts/form-record';
import {
  MIGRATION_PREVIEW_ITEMS,
  type MigrationApplyResponse,
  type MigrationItemVO,
  type MigrationPreviewResponse,
  type MigrationSelection,
} from '@registry/shared/contracts/record-migration';
import type { FormDefinition } from '@registry/shared/forms/definition';
import { migrateRecordData, type RecordMigration } from '@registry/shared/forms/migrate';
import { validateRecord } from '@registry/shared/forms/record';
import { shanghaiDate } from '@registry/shared/followup/schedule';
import { PERMISSIONS } from '@registry/shared/permissions';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { requireProjectScope, type ProjectScope } from '../../domain/scope/project-scope';
import type { DefinitionCache, PublishedVersion } from '../../domain/crf/definition-cache';
import { RECORD_MESSAGES as M } from './patient-record.messages';
import { loadPatientContext, type ContextRecord } from './patient-record.repository';
import { externalOf } from './patient-record.service';
import { diffLeaves, isPhiPath, phiKeys } from './record-data';
import { newestVersionIds, patientsWithOutdatedRecords } from './record-migration.repository';
import { writeRecord } from './record-writer';

export const MIGRATION_MESSAGES = {
  reason: (from: number, to: number, reason: string) => `表单由第 ${from} 版迁移到第 ${to} 版：${reason}`,
} as const;

/** One record on an older version, with the version its form is current in and what moving it would do. */
type Candidate = {
  patientId: string;
  patientNo: string;
  /** The patient's cohort: the sub-project when it has one, else the project (where value versions are filed). */
  cohortId: string;
  external: Record<string, unknown>;
  record: ContextRecord;
  from: PublishedVersion;
  fromForm: FormDefinition;
  to: PublishedVersion;
  toForm: FormDefinition;
  migration: RecordMigration;
};

const MASK = '***';

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export type RecordMigrationService = ReturnType<typeof createRecordMigrationService>;

/**
 * Version migration of CRF records (contract `record-migration`): each record moves to the newest published version
 * of the database its version belongs to, when that version still has the form; values are carried by key
 * (`migrateRecordData`), and the move is THE record write (`writeRecord`: row version check, value versions, one
 * audit event `form_record.migrate` naming both versions and the reason).
 */
export function createRecordMigrationService(deps: { db: Db; clock: Clock; definitions: DefinitionCache }) {
  const { db, clock, definitions } = deps;

  /** The records of the selection that are on an older version, patient by patient (yielding between patients). */
  async function* candidates(scope: ProjectScope, selection: MigrationSelection): AsyncGenerator<Candidate> {
    const patients = await patientsWithOutdatedRecords(db, scope, {
      ...(selection.patientId ? { patientId: selection.patientId } : {}),
      ...(selection.formKey ? { formKey: selection.formKey } : {}),
    });
    if (selection.patientId && patients.length === 0) {
      // one patient: out of scope (404) or simply up to date (nothing to move)
      const ctx = await loadPatientContext(db, scope, selection.patientId, { formKey: '', instance: null });
      if (!ctx) throw new AppError(404, M.patientNotFound);
    }
    for (const patient of patients) {
      const ctx = await loadPatientContext(db, scope, patient.id, 'all');
      if (!ctx) continue;
      if (ctx.frozen) throw new AppError(409, M.frozen);
      const versions = await definitions.load(
        db,
        scope.tenantId,
        ctx.records.map((r) => r.versionId),
      );
      const newest = await newestVersionIds(db, scope.tenantId, [
        ...new Set([...versions.values()].map((v) => v.projectId)),
      ]);
      const targets = await definitions.load(db, scope.tenantId, [...newest.values()]);
      for (const record of ctx.records) {
        if (selection.formKey && record.formKey !== selection.formKey) continue;
        if (selection.instance && record.instance !== selection.instance) continue;
        const from = versions.get(record.versionId);
        const fromForm = from?.forms.get(record.formKey);
        const to = from ? targets.get(newest.get(from.projectId) ?? '') : undefined;
        const toForm = to?.forms.get(record.formKey);
        if (!from || !fromForm || !to || !toForm || to.id === from.id || to.versionNo < from.versionNo) continue;
        const external = externalOf(ctx.records, versions, record.formKey);
        const migration = migrateRecordData(fromForm, toForm, record.data, {
          missingCodes: to.missingCodes,
          external,
          today: shanghaiDate(clock.now()),
        });
        yield {
          patientId: patient.id,
          patientNo: patient.patientNo,
          cohortId: ctx.patient.subProjectId ?? ctx.patient.projectId,
          external,
          record,
          from,
          fromForm,
          to,
          toForm,
          migration,
        };
      }
      await yieldToLoop();
    }
  }

  function present(c: Candidate, pii: boolean): MigrationItemVO {
    const phi = phiKeys(c.fromForm);
    const shown = (path: string, value: unknown) => (!pii && isPhiPath(phi, path) ? MASK : text(value));
    return {
      recordId: c.record.id,
      patientId: c.patientId,
      patientNo: c.patientNo,
      formKey: c.record.formKey,
      formTitle: c.toForm.title,
      instance: c.record.instance,
      status: c.record.status,
      fromVersionNo: c.from.versionNo,
      toVersionNo: c.to.versionNo,
      locked: c.record.status === 'locked',
      lost: c.migration.lost.map((l) => ({
        path: l.path,
        label: l.label,
        value: shown(l.path, l.value),
        reason: l.reason,
      })),
      recalculated: c.migration.recalculated.map((r) => ({
        path: r.path,
        label: r.label,
        before: text(r.before),
        after: text(r.after),
      })),
    };
  }

  return {
    async preview(auth: AuthContext, selection: MigrationSelection): Promise<MigrationPreviewResponse> {
      const scope = await requireProjectScope(db, auth);
      const pii = scope.permissions.includes(PERMISSIONS.patientPii);
      let total = 0;
      let lossy = 0;
      let locked = 0;
      const items: Candidate[] = [];
      for await (const c of candidates(scope, selection)) {
        total++;
        if (c.migration.lost.length > 0) lossy++;
        if (c.record.status === 'locked') locked++;
        if (items.length < MIGRATION_PREVIEW_ITEMS * 5) items.push(c);
      }
      // what needs a decision first: records that lose values, then locked ones
      const rank = (c: Candidate) => (c.migration.lost.length > 0 ? 0 : c.record.status === 'locked' ? 1 : 2);
      items.sort((a, b) => rank(a) - rank(b));
      return { total, lossy, locked, items: items.slice(0, MIGRATION_PREVIEW_ITEMS).map((c) => present(c, pii)) };
    },

    async apply(
      auth: AuthContext,
      input: MigrationSelection & { reason: string; acceptLoss: boolean; limit: number },
      auditCtx: AuditContext,
    ): Promise<MigrationApplyResponse> {
      const scope = await requireProjectScope(db, auth);
      let migrated = 0;
      let skipped = 0;
      let remaining = 0;
      for await (const c of candidates(scope, input)) {
        const movable = c.record.status !== 'locked' && (input.acceptLoss || c.migration.lost.length === 0);
        if (!movable) {
          skipped++;
          continue;
        }
        if (migrated >= input.limit) {
          remaining++;
          continue;
        }
        const changes = diffLeaves(c.toForm, c.record.data, c.migration.data);
        const from: RecordStatus = c.record.status;
        const status: RecordStatus = from === 'verified' && changes.length > 0 ? 'submitted' : from;
        const verdict = validateRecord(c.toForm, c.migration.data, {
          missingCodes: c.to.missingCodes,
          external: c.external,
          mode: 'draft',
          today: shanghaiDate(clock.now()),
        });
        try {
          await writeRecord(db, auditCtx, {
            tenantId: scope.tenantId,
            projectId: c.cohortId,
            patientId: c.patientId,
            form: c.toForm,
            versionId: c.to.id,
            existing: { ...c.record, versionId: c.from.id },
            data: c.migration.data,
            softIssues: verdict.issues.filter((i) => i.level === 'soft'),
            status,
            source: { type: 'manual' },
            reason: MIGRATION_MESSAGES.reason(c.from.versionNo, c.to.versionNo, input.reason),
            actorId: scope.userId,
            at: clock.now(),
            action: 'form_record.migrate',
            force: true,
          });
          migrated++;
        } catch (err) {
          // someone saved the record in between (409): left as it is, counted, and moved by a next call
          if (err instanceof AppError && err.statusCode === 409) skipped++;
          else throw err;
        }
      }
      return { migrated, skipped, remaining };
    },
  };
}
