import type { PlanVO, VisitVO } from '@registry/shared/contracts/followup';
import type { PublishedResponse } from '@registry/shared/contracts/form-definition';
import { setToken } from '../../../lib/token';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { server } from '../../../test/server';
import { apiUrl, http, ok } from '../../../test/api';

export const PLAN_ID = '00000000-0000-4000-8000-000000000001';

export function buildVisit(overrides: Partial<VisitVO> = {}): VisitVO {
  return {
    id: '00000000-0000-4000-8000-0000000000a1',
    seq: 1,
    name: '3个月随访',
    offset: 3,
    offsetUnit: 'month',
    fixedDate: null,
    windowBefore: 7,
    windowAfter: 7,
    formKeys: ['followup_visit'],
    contactMethod: 'phone',
    ...overrides,
  };
}

export function buildPlan(overrides: Partial<PlanVO> = {}): PlanVO {
  return {
    id: PLAN_ID,
    name: '心衰出院后随访',
    description: null,
    kind: 'relative',
    status: 'draft',
    anchor: { type: 'enrol' },
    anchorLabel: '入组日期',
    period: null,
    visits: [
      buildVisit(),
      buildVisit({ id: '00000000-0000-4000-8000-0000000000a2', seq: 2, name: '6个月随访', offset: 6 }),
    ],
    assignMode: 'auto',
    rule: { subProjectIds: [], field: null },
    remindDaysBefore: 3,
    defaultOwnerId: null,
    defaultOwnerName: null,
    patientCount: 0,
    openTaskCount: 0,
    overdueTaskCount: 0,
    rowVersion: 4,
    createdByName: '张伟',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    ...overrides,
  };
}

export const PUBLISHED: PublishedResponse = {
  parent: null,
  own: {
    versionId: '00000000-0000-4000-8000-0000000000f1',
    versionNo: 1,
    projectId: 'p-1',
    definition: {
      missingCodes: [],
      categories: [
        {
          key: 'base',
          title: '基线',
          forms: [
            {
              key: 'baseline',
              title: '基线资料',
              fields: [
                { key: 'surgery_date', label: '手术日期', type: 'date' },
                {
                  key: 'nyha',
                  label: 'NYHA分级',
                  type: 'radio',
                  options: [
                    { code: '1', label: 'I级' },
                    { code: '2', label: 'II级' },
                  ],
                },
              ],
            },
            {
              key: 'followup_visit',
              title: '随访记录',
              followUp: true,
              repeating: true,
              fields: [{ key: 'fu_date', label: '随访日期', type: 'date' }],
            },
          ],
        },
      ],
    },
  },
};

/** Signs in with `followup.config`, selects project p-1 and serves the calls every plan page makes. */
export function servePlanPages() {
  setToken('tok');
  useMenuStore.getState().setPersonMenu([], ['followup.config']);
  useProjectStore
    .getState()
    .selectProject({ projectCode: 'HF-REG', projectId: 'p-1', projectName: '心衰登记', subProject: false });
  server.use(
    http.get(apiUrl('/web-project/current'), () =>
      ok({ id: 'p-1', projectName: '心衰登记', projectCode: 'HF-REG', subProject: false }),
    ),
    http.get(apiUrl('/form-definition/published'), () => ok(PUBLISHED)),
    http.get(apiUrl('/web-project/current-project-tenant-doctors'), () =>
      ok([{ id: '00000000-0000-4000-8000-0000000000d1', name: '李护士', username: 'lihs', departmentName: '心内科' }]),
    ),
    http.post(apiUrl('/web-project/list'), () => ok({ departmentName: '', hospitalName: '', projectVOs: [] })),
  );
}
