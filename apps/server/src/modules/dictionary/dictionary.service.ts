import type { z } from 'zod';
import type {
  AreaPageRequest,
  AreaVO,
  DictOptionPageRequest,
  DictOptionVO,
  DictVO,
  dictCreateRequest,
  dictOptionCreateRequest,
  dictOptionUpdateRequest,
  dictUpdateRequest,
} from '@registry/shared/contracts/dictionary';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { isUuid } from '../project/project-scope';
import {
  deleteDictRow,
  deleteOptionRow,
  findOptionByCode,
  findVisibleOption,
  insertDictRow,
  insertOptionRow,
  isDictUsedByForms,
  listVisibleDicts,
  nextOptionSort,
  pageAreas,
  pageOptions,
  updateDictRow,
  updateOptionRow,
  type DictRow,
  type OptionRow,
} from './dictionary.repository';
import { presentArea, presentDict, presentOption } from './dictionary.presenter';

export const DICTIONARY_MESSAGES = {
  dictNotFound: '字典不存在',
  optionNotFound: '选项不存在',
  builtInReadOnly: '系统内置字典不能修改',
  dictCodeTaken: '字典编码已存在',
  optionCodeTaken: '选项编码已存在',
  dictInUse: '字典正在被表单使用',
  parentNotFound: '上级选项不存在',
} as const;
const M = DICTIONARY_MESSAGES;

type Page<T> = { records: T[]; total: number; current: number; size: number };

export type DictionaryService = ReturnType<typeof createDictionaryService>;

export function createDictionaryService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** A list the caller's tenant sees (built-in or its own), else 404 exactly like a missing one. */
  async function visibleDict(tenantId: string, id: string): Promise<DictRow> {
    const [row] = isUuid(id) ? await listVisibleDicts(db, tenantId, { id }) : [];
    if (!row) throw new AppError(404, M.dictNotFound);
    return row;
  }

  /** The tenant's own list: built-in ones are read-only. */
  async function ownDict(tenantId: string, id: string): Promise<DictRow> {
    const row = await visibleDict(tenantId, id);
    if (row.builtIn || row.tenantId === null) throw new AppError(403, M.builtInReadOnly);
    return row;
  }

  async function ownOption(tenantId: string, id: string): Promise<OptionRow> {
    const row = isUuid(id) ? await findVisibleOption(db, tenantId, id) : undefined;
    if (!row) throw new AppError(404, M.optionNotFound);
    if (row.builtIn || row.dictTenantId === null) throw new AppError(403, M.builtInReadOnly);
    return row;
  }

  async function reloadDict(tenantId: string, id: string): Promise<DictVO> {
    return presentDict(await visibleDict(tenantId, id));
  }

  async function reloadOption(tenantId: string, id: string): Promise<DictOptionVO> {
    const row = await findVisibleOption(db, tenantId, id);
    if (!row) throw new AppError(404, M.optionNotFound);
    return presentOption(row);
  }

  return {
    async list(auth: AuthContext): Promise<DictVO[]> {
      return (await listVisibleDicts(db, auth.tenantId)).map(presentDict);
    },

    async create(auth: AuthContext, input: z.infer<typeof dictCreateRequest>, ctx: AuditContext): Promise<DictVO> {
      const tenantId = auth.tenantId;
      if ((await listVisibleDicts(db, tenantId, { code: input.code })).length > 0)
        throw new AppError(409, M.dictCodeTaken);
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const row = await insertDictRow(tx, {
          tenantId,
          code: input.code,
          name: input.name,
          description: input.description || null,
          builtIn: false,
          createdAt: now,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'field_dict.create',
            entityType: 'field_dict',
            entityId: row.id,
            newValue: { code: input.code, name: input.name, description: input.description || null },
          },
          now,
        );
        return row.id;
      });
      return reloadDict(tenantId, id);
    },

    async update(auth: AuthContext, input: z.infer<typeof dictUpdateRequest>, ctx: AuditContext): Promise<DictVO> {
      const before = await ownDict(auth.tenantId, input.id);
      const set: { name?: string; description?: string | null } = {};
      if (input.name !== undefined && input.name !== before.name) set.name = input.name;
      if (input.description !== undefined) {
        const description = input.description || null;
        if (description !== before.description) set.description = description;
      }
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          await updateDictRow(tx, auth.tenantId, before.id, set);
          const old = { name: before.name, description: before.description };
          const oldValue: Record<string, unknown> = {};
          for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = old[k];
          await audit(
            tx,
            ctx,
            { action: 'field_dict.update', entityType: 'field_dict', entityId: before.id, oldValue, newValue: set },
            now,
          );
        });
      }
      return reloadDict(auth.tenantId, before.id);
    },

    async remove(auth: AuthContext, id: string, ctx: AuditContext): Promise<null> {
      const before = await ownDict(auth.tenantId, id);
      if (await isDictUsedByForms(db, auth.tenantId, before.code)) throw new AppError(409, M.dictInUse);
      const now = clock.now();
      await db.transaction(async (tx) => {
        await deleteDictRow(tx, auth.tenantId, before.id);
        await audit(
          tx,
          ctx,
          {
            action: 'field_dict.delete',
            entityType: 'field_dict',
            entityId: before.id,
            oldValue: {
              code: before.code,
              name: before.name,
              description: before.description,
              optionCount: before.optionCount,
            },
          },
          now,
        );
      });
      return null;
    },

    async pageOptions(auth: AuthContext, input: DictOptionPageRequest): Promise<Page<DictOptionVO>> {
      let dictId: string | undefined;
      if (input.dictCode) {
        const [dict] = await listVisibleDicts(db, auth.tenantId, { code: input.dictCode });
        if (!dict) throw new AppError(404, M.dictNotFound);
        dictId = dict.id;
      }
      const { total, records } = await pageOptions(
        db,
        auth.tenantId,
        {
          ...(dictId ? { dictId } : {}),
          ...(input.keyword ? { keyword: input.keyword } : {}),
          ...(input.codes ? { codes: input.codes } : {}),
          ...(input.enabledOnly ? { enabledOnly: true } : {}),
        },
        { limit: input.size, offset: (input.current - 1) * input.size },
      );
      return { records: records.map(presentOption), total, current: input.current, size: input.size };
    },

    async createOption(
      auth: AuthContext,
      input: z.infer<typeof dictOptionCreateRequest>,
      ctx: AuditContext,
    ): Promise<DictOptionVO> {
      const dict = await ownDict(auth.tenantId, input.dictId);
      if (await findOptionByCode(db, dict.id, input.code)) throw new AppError(409, M.optionCodeTaken);
      const parentCode = input.parentCode ?? null;
      if (parentCode !== null && !(await findOptionByCode(db, dict.id, parentCode)))
        throw new AppError(400, M.parentNotFound, [{ path: 'parentCode', message: M.parentNotFound }]);
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const sort = input.sort ?? (await nextOptionSort(tx, dict.id));
        const row = await insertOptionRow(tx, {
          dictId: dict.id,
          tenantId: auth.tenantId,
          code: input.code,
          label: input.label,
          parentCode,
          sort,
          enabled: true,
        });
        await audit(
          tx,
          ctx,
          {
            action: 'field_dict_option.create',
            entityType: 'field_dict_option',
            entityId: row.id,
            newValue: { dictCode: dict.code, code: input.code, label: input.label, parentCode, sort },
          },
          now,
        );
        return row.id;
      });
      return reloadOption(auth.tenantId, id);
    },

    async updateOption(
      auth: AuthContext,
      input: z.infer<typeof dictOptionUpdateRequest>,
      ctx: AuditContext,
    ): Promise<DictOptionVO> {
      const before = await ownOption(auth.tenantId, input.id);
      const set: { label?: string; sort?: number; enabled?: boolean } = {};
      if (input.label !== undefined && input.label !== before.label) set.label = input.label;
      if (input.sort !== undefined && input.sort !== before.sort) set.sort = input.sort;
      if (input.enabled !== undefined && input.enabled !== before.enabled) set.enabled = input.enabled;
      if (Object.keys(set).length > 0) {
        const now = clock.now();
        await db.transaction(async (tx) => {
          await updateOptionRow(tx, auth.tenantId, before.id, set);
          const old = { label: before.label, sort: before.sort, enabled: before.enabled };
          const oldValue: Record<string, unknown> = { dictCode: before.dictCode, code: before.code };
          for (const k of Object.keys(set) as (keyof typeof set)[]) oldValue[k] = old[k];
          await audit(
            tx,
            ctx,
            {
              action: 'field_dict_option.update',
              entityType: 'field_dict_option',
              entityId: before.id,
              oldValue,
              newValue: set,
            },
            now,
          );
        });
      }
      return reloadOption(auth.tenantId, before.id);
    },

    async removeOption(auth: AuthContext, id: string, ctx: AuditContext): Promise<null> {
      const before = await ownOption(auth.tenantId, id);
      const now = clock.now();
      await db.transaction(async (tx) => {
        await deleteOptionRow(tx, auth.tenantId, before.id);
        await audit(
          tx,
          ctx,
          {
            action: 'field_dict_option.delete',
            entityType: 'field_dict_option',
            entityId: before.id,
            oldValue: {
              dictCode: before.dictCode,
              code: before.code,
              label: before.label,
              parentCode: before.parentCode,
              sort: before.sort,
              enabled: before.enabled,
            },
          },
          now,
        );
      });
      return null;
    },

    async pageAreas(input: AreaPageRequest): Promise<Page<AreaVO>> {
      const { total, records } = await pageAreas(
        db,
        {
          ...(input.parentCode ? { parentCode: input.parentCode } : {}),
          ...(input.level ? { level: input.level } : {}),
          ...(input.keyword ? { keyword: input.keyword } : {}),
          ...(input.codes ? { codes: input.codes } : {}),
        },
        { limit: input.size, offset: (input.current - 1) * input.size },
      );
      return { records: records.map(presentArea), total, current: input.current, size: input.size };
    },
  };
}
