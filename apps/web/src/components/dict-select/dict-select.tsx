import { useMemo, useState } from 'react';
import { Select, Spin } from 'antd';
import type { DictOptionVO } from '@registry/shared/contracts/dictionary';
import { useDebounced } from '../../lib/use-debounced';
import { useDictOptionPage } from '../../api/dict-options';

/** How long typing must pause before the search is sent. */
export const DICT_SEARCH_DEBOUNCE_MS = 300;
/** Options shown per search (the keyword narrows long lists such as ICD-10). */
const SEARCH_SIZE = 50;

export type DictSelectProps = {
  /** The list's code (`gender`, `icd10`, a tenant's own list). */
  dictCode: string;
  /** An option code, or codes when `multiple`. */
  value?: string | string[] | null;
  onChange?: (value: string | string[] | undefined) => void;
  disabled?: boolean;
  multiple?: boolean;
  placeholder?: string;
  id?: string;
  'aria-label'?: string;
  status?: 'error' | 'warning';
};

const optionText = (o: Pick<DictOptionVO, 'code' | 'label'>) => `${o.code} ${o.label}`;

/**
 * A searchable select over one shared option list: remote search by code or name (debounced), shown as `code 名称`;
 * the current value is labelled by fetching its codes, so a value outside the first page (or a disabled option) still
 * reads as its name.
 */
export function DictSelect({
  dictCode,
  value,
  onChange,
  disabled,
  multiple,
  placeholder,
  id,
  status,
  'aria-label': ariaLabel,
}: DictSelectProps) {
  const [keyword, setKeyword] = useState('');
  const debounced = useDebounced(keyword.trim(), DICT_SEARCH_DEBOUNCE_MS);
  const search = useDictOptionPage({
    dictCode,
    enabledOnly: true,
    size: SEARCH_SIZE,
    ...(debounced ? { keyword: debounced } : {}),
  });
  const codes = useMemo(
    () => (value == null ? [] : (Array.isArray(value) ? value : [value]).filter((c) => c !== '')),
    [value],
  );
  const labels = useDictOptionPage({ dictCode, codes, size: Math.max(codes.length, 1) }, codes.length > 0);

  const options = useMemo(() => {
    const found = search.data?.records ?? [];
    const known = new Set(found.map((o) => o.code));
    const current = (labels.data?.records ?? []).filter((o) => !known.has(o.code));
    return [...current, ...found].map((o) => ({ value: o.code, label: optionText(o), disabled: !o.enabled }));
  }, [search.data, labels.data]);

  return (
    <Select<string | string[]>
      id={id}
      aria-label={ariaLabel}
      status={status}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      disabled={disabled}
      placeholder={placeholder ?? '输入编码、名称或拼音首字母搜索'}
      value={value ?? undefined}
      onChange={(next) => {
        setKeyword('');
        onChange?.(
          next === undefined || next === null || (Array.isArray(next) && next.length === 0) ? undefined : next,
        );
      }}
      options={options}
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      loading={search.isFetching}
      notFoundContent={search.isFetching ? <Spin size="small" /> : '无匹配选项'}
      style={{ width: '100%' }}
    />
  );
}
