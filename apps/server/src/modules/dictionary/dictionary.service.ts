import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { z } from 'zod';
import type {
  AreaPageRequest,
  AreaVO,
  DictOptionPageRequest,
  DictImportReport,
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
import { pinyinKey } from '../../lib/pinyin';
import { audit, type AuditContext } from '../../plugins/audit';
import type { AuthContext } from '../auth/session.service';
import { isUuid } from '../../domain/scope/project-scope';
import {
  deleteDictRow,
  deleteOptionRow,
  disableOptionRows,
  insertOptionRows,
  listDictOptions,
  lockDictRow,
  updateOptionRows,
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
import { readCodeListFile } from './dict-import-file';
import { planDictImport, type DictImportPlan } from './dict-import-plan';
import { presentArea, presentDict, presentOption } from './dictionary.presenter';

export const DICTIONARY_MESSAGES = {
  dictNotFound: '字典不存在',
  optionNotFound: '选项不存在',
  builtInReadOnly: '系统内置字典不能修改',
  dictCodeTaken: '字典编码已存在',
  optionCodeTaken: '选项编码已存在',
  dictInUse: '字典正在被表单使用',
  parentNotFound: '上级选项不存在',
  importHasErrors: (n: number) => `导入文件有 ${n} 处错误，未写入任何数据`,
} as const;
const M = DICTIONARY_MESSAGES;

type Page<T> = { records: T[]; total: number; current: number; size: number };

/** Problems listed in a report or a refusal (`errorCount` has them all). */
const MAX_REPORTED_ERRORS = 500;
/** Codes named in an import's audit event. */
const AUDITED_CODES = 1000;

function importReport(fileName: string, encoding: string | null, plan: DictImportPlan): DictImportReport {
  return {
    fileName,
    encoding,
    rowCount: plan.rowCount,
    created: plan.create.length,
    updated: plan.update.length,
    unchanged: plan.unchanged,
    disabled: plan.disable.length,
    errors: plan.errors.slice(0, MAX_REPORTED_ERRORS),
    errorCount: plan.errors.length,
    ok: plan.errors.length === 0,
  };
}

/** The options with their pinyin search keys, yielding to the event loop between chunks of a long list. */
async function withPinyin<T extends { label: string }>(options: T[]): Promise<(T & { pinyin: string })[]> {
  const out: (T & { pinyin: string })[] = [];
  for (let i = 0; i < options.length; i++) {
    const o = options[i]!;
    out.push({ ...o, pinyin: pinyinKey(o.label) });
    if (i % 2000 === 1999) await yieldToLoop();
  }
  return out;
}

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

    /** Reads and checks a code-list file against an own list; writes nothing. */
    async importDryRun(
      auth: AuthContext,
      query: { dictId: string; disableMissing: boolean },
      file: { fileName: string; data: Buffer },
    ): Promise<DictImportReport> {
      const dict = await ownDict(auth.tenantId, query.dictId);
      const read = await readCodeListFile(file.fileName, file.data);
      const plan = planDictImport(read.rows, await listDictOptions(db, dict.id), query);
      return importReport(file.fileName, read.encoding, plan);
    },

    /**
     * Writes a code-list file into an own list in one transaction with one audit event, or nothing: any problem
     * refuses the whole file (400, the problems as issues). Concurrent imports of one list run one after the other.
     */
    async importCommit(
      auth: AuthContext,
      query: { dictId: string; disableMissing: boolean },
      file: { fileName: string; data: Buffer },
      ctx: AuditContext,
    ): Promise<DictImportReport> {
      const dict = await ownDict(auth.tenantId, query.dictId);
      const read = await readCodeListFile(file.fileName, file.data);
      const now = clock.now();
      const plan = await db.transaction(async (tx) => {
        await lockDictRow(tx, dict.id);
        const plan = planDictImport(read.rows, await listDictOptions(tx, dict.id), query);
        if (plan.errors.length > 0)
          throw new AppError(
            400,
            M.importHasErrors(plan.errors.length),
            plan.errors.slice(0, MAX_REPORTED_ERRORS).map((e) => ({
              path: `第${e.row}行${e.column ? ` ${e.column}` : ''}`,
              message: e.message,
            })),
          );
        await insertOptionRows(tx, dict.id, auth.tenantId, await withPinyin(plan.create));
        await updateOptionRows(tx, dict.id, auth.tenantId, await withPinyin(plan.update));
        await disableOptionRows(tx, dict.id, auth.tenantId, plan.disable);
        await audit(
          tx,
          ctx,
          {
            action: 'field_dict.import',
            entityType: 'field_dict',
            entityId: dict.id,
            newValue: {
              dictCode: dict.code,
              fileName: file.fileName,
              fileSha256: createHash('sha256').update(file.data).digest('hex'),
              rowCount: plan.rowCount,
              created: plan.create.length,
              updated: plan.update.length,
              disabled: plan.disable.length,
              // the changed codes themselves, up to a bound (the file's hash identifies the whole list)
              createdCodes: plan.create.slice(0, AUDITED_CODES).map((o) => o.code),
              updatedCodes: plan.update.slice(0, AUDITED_CODES).map((o) => o.code),
            },
          },
          now,
        );
        return plan;
      });
      return importReport(file.fileName, read.encoding, plan);
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
          pinyin: pinyinKey(input.label),
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
          await updateOptionRow(tx, auth.tenantId, before.id, {
            ...set,
            ...(set.label !== undefined ? { pinyin: pinyinKey(set.label) } : {}),
          });
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
