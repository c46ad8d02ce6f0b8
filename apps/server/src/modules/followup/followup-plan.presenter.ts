import type { AssignmentVO, PlanVO, VisitVO } from '@registry/shared/contracts/followup';
import { maskName } from '@registry/shared/phi-mask';
import type { PlanCounts, PlanRow, VisitRow } from './followup-plan.repository';
import type { pageAssignments } from './followup-assignment.repository';

export function presentVisit(v: VisitRow): VisitVO {
  return {
    id: v.id,
    seq: v.seq,
    name: v.name,
    offset: v.offset,
    offsetUnit: v.offsetUnit,
    fixedDate: v.fixedDate,
    windowBefore: v.windowBefore,
    windowAfter: v.windowAfter,
    formKeys: v.formKeys,
    contactMethod: v.contactMethod as VisitVO['contactMethod'],
  };
}

export function presentPlan(
  row: PlanRow,
  visits: VisitRow[],
  counts: PlanCounts | undefined,
  anchorLabel: string | null,
): PlanVO {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    status: row.status,
    anchor: row.kind === 'relative' ? row.anchor : null,
    anchorLabel: row.kind === 'relative' ? anchorLabel : null,
    period: row.period,
    visits: visits.map(presentVisit),
    assignMode: row.assignMode,
    rule: row.rule,
    remindDaysBefore: row.remindDaysBefore,
    defaultOwnerId: row.defaultOwnerId,
    defaultOwnerName: row.defaultOwnerName,
    patientCount: counts?.patientCount ?? 0,
    openTaskCount: counts?.openTaskCount ?? 0,
    overdueTaskCount: counts?.overdueTaskCount ?? 0,
    rowVersion: row.rowVersion,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type AssignmentRow = Awaited<ReturnType<typeof pageAssignments>>['records'][number];

/** The patient's name masked without `patient.pii`. */
export function presentAssignment(row: AssignmentRow, pii: boolean): AssignmentVO {
  return {
    id: row.id,
    planId: row.planId,
    patientId: row.patientId,
    patientNo: row.patientNo,
    patientName: pii ? row.patientName : maskName(row.patientName),
    centerName: row.centerName,
    source: row.source,
    status: row.status,
    anchorDate: row.anchorDate,
    tasksDone: row.tasksDone,
    tasksTotal: row.tasksTotal,
    createdAt: row.createdAt.toISOString(),
  };
}
