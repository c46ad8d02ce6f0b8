import { useMemo, useState } from 'react';
import { Cascader } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AreaVO } from '@registry/shared/contracts/dictionary';
import { pageAreas } from '../../api/dictionaries';
import { areaKeys } from '../../api/dictionaries';

type AreaNode = { value: string; label: string; isLeaf: boolean; loading?: boolean; children?: AreaNode[] };

export type AreaCascaderProps = {
  /** The chosen area's code (a county, or a city / province without children). */
  value?: string | null;
  onChange?: (value: string | undefined, area?: { code: string; fullName: string }) => void;
  disabled?: boolean;
  placeholder?: string;
  id?: string;
  'aria-label'?: string;
  status?: 'error' | 'warning';
};

/** Largest number of children of one area (a province has well under this many cities and counties). */
const CHILDREN_SIZE = 200;
const PROVINCES = { size: CHILDREN_SIZE };

/**
 * Province → city → county cascader over China's administrative divisions (GB/T 2260 codes), loading each level on
 * demand from `sys-area/page`. The value is the last chosen code; a value set from outside (a saved record) is shown
 * by its full name (`广东省 广州市 天河区`).
 */
export function AreaCascader({
  value,
  onChange,
  disabled,
  placeholder,
  id,
  status,
  'aria-label': ariaLabel,
}: AreaCascaderProps) {
  const provinces = useQuery({ queryKey: areaKeys.page(PROVINCES), queryFn: () => pageAreas(PROVINCES) });
  const [children, setChildren] = useState<Record<string, AreaVO[]>>({});
  const [loading, setLoading] = useState<ReadonlySet<string>>(new Set());
  /** The path the user picked in this cascader (codes), while it still matches `value`. */
  const [picked, setPicked] = useState<string[]>([]);
  const pickedMatches = value != null && value !== '' && picked[picked.length - 1] === value;
  const label = useQuery({
    queryKey: areaKeys.page({ codes: value ? [value] : [] }),
    queryFn: () => pageAreas({ codes: value ? [value] : [], size: 1 }),
    enabled: Boolean(value) && !pickedMatches,
  });

  const options = useMemo(() => {
    const build = (a: AreaVO): AreaNode => {
      const kids = children[a.code];
      return {
        value: a.code,
        label: a.name,
        isLeaf: !a.hasChildren,
        ...(loading.has(a.code) ? { loading: true } : {}),
        ...(kids ? { children: kids.map(build) } : {}),
      };
    };
    return (provinces.data?.records ?? []).map(build);
  }, [provinces.data, children, loading]);

  const loadData = async (selected: AreaNode[]) => {
    const target = selected[selected.length - 1];
    if (!target || children[target.value]) return;
    const code = target.value;
    setLoading((prev) => new Set(prev).add(code));
    try {
      const page = await pageAreas({ parentCode: code, size: CHILDREN_SIZE });
      setChildren((prev) => ({ ...prev, [code]: page.records }));
    } finally {
      setLoading((prev) => {
        const next = new Set(prev);
        next.delete(code);
        return next;
      });
    }
  };

  const shownName = !pickedMatches && value ? (label.data?.records[0]?.fullName ?? value) : undefined;

  return (
    <Cascader<AreaNode>
      id={id}
      aria-label={ariaLabel}
      status={status}
      disabled={disabled}
      options={options}
      loadData={(selected) => void loadData(selected).catch(() => undefined)}
      value={pickedMatches ? picked : value ? [value] : undefined}
      displayRender={(labels) => (pickedMatches ? labels.join(' ') : (shownName ?? labels.join(' ')))}
      placeholder={placeholder ?? '请选择省 / 市 / 区县'}
      onChange={(path, selected) => {
        const codes = ((path ?? []) as string[]).slice();
        const last = codes[codes.length - 1];
        setPicked(codes);
        const fullName = (selected ?? []).map((n) => n.label).join(' ');
        onChange?.(last, last ? { code: last, fullName } : undefined);
      }}
      style={{ width: '100%' }}
    />
  );
}
