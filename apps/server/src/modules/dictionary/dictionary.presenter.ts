import type { AreaVO, DictOptionVO, DictVO } from '@registry/shared/contracts/dictionary';
import type { AreaRow, DictRow, OptionRow } from './dictionary.repository';

/** A list as the web sees it (whitelisted fields). */
export function presentDict(row: DictRow): DictVO {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    builtIn: row.builtIn,
    source: row.source,
    optionCount: row.optionCount,
  };
}

export function presentOption(row: OptionRow): DictOptionVO {
  return {
    id: row.id,
    dictCode: row.dictCode,
    dictName: row.dictName,
    code: row.code,
    label: row.label,
    parentCode: row.parentCode,
    sort: row.sort,
    enabled: row.enabled,
    builtIn: row.builtIn,
  };
}

export function presentArea(row: AreaRow): AreaVO {
  return {
    code: row.code,
    name: row.name,
    parentCode: row.parentCode,
    level: row.level,
    fullName: row.fullName,
    hasChildren: row.hasChildren,
  };
}
