import { useMemo, useState } from 'react';
import { Flex, Table, TreeSelect, Typography } from 'antd';
import type { TableColumnsType, TablePaginationConfig, TableProps } from 'antd';
import { Link } from 'react-router';
import type { CohortForms } from '@registry/shared/cohort/check';
import type { CohortDefinition } from '@registry/shared/cohort/definition';
import type { CohortRowsRequest, CohortRowVO } from '@registry/shared/contracts/retrieval';
import {
  PATIENT_GENDER_LABELS,
  PATIENT_STATUS_LABELS,
  type PatientGender,
  type PatientStatus,
} from '@registry/shared/contracts/patient-codes';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { ApiError } from '../../../lib/request';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useCohortRows } from '../api/cohort-rows';
import { columnTree, filterTreeNode, type CohortCategory } from '../hooks/field-tree';
import { formatCell, resultColumns } from '../hooks/result-cells';
import { useDictLabels } from '../hooks/use-dict-labels';

/** How many CRF columns the chooser takes (the server's limit, `MAX_COHORT_COLUMNS`). */
export const MAX_RESULT_COLUMNS = 20;
const DEFAULT_SIZE = 20;
const NO_ROWS: CohortRowVO[] = [];

export const MASKED_HINT = '已脱敏：您没有查看患者身份信息的权限';
export const WITHHELD_TEXT = '已隐藏';

type Sort = { key: string; order: 'asc' | 'desc' };
const DEFAULT_SORT: Sort = { key: 'patientNo', order: 'asc' };

const dash = <Typography.Text type="secondary">—</Typography.Text>;
const labelOf = <K extends string>(labels: Readonly<Record<K, string>>, code: string | null) =>
  code === null ? null : ((labels as Record<string, string>)[code] ?? code);

/**
 * The cohort's patients (检索结果): the patient columns and the CRF fields picked in 显示列 (non-repeating forms'
 * fields), paged and sorted by the server. `cohort` null: nothing is read (the builder shows an issue, or the cohort
 * is still settling; the last page stays shown meanwhile). Without `patient.pii` the name comes masked, a PHI column's
 * values withheld and not sortable.
 */
export function ResultTable({
  cohort,
  forms,
  categories,
}: {
  cohort: CohortDefinition | null;
  forms: CohortForms;
  categories?: readonly CohortCategory[];
}) {
  const held = useMenuStore((s) => s.permissions);
  const canPii = hasAnyPermission(held, [PERMISSIONS.patientPii]);
  const tree = useMemo(() => columnTree(forms, categories), [forms, categories]);

  const [picked, setPicked] = useState<string[]>([]);
  const [page, setPage] = useState({ current: 1, size: DEFAULT_SIZE });
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  // a new cohort starts at its first page
  const [pagedCohort, setPagedCohort] = useState(cohort);
  if (cohort !== pagedCohort) {
    setPagedCohort(cohort);
    if (cohort !== null && page.current !== 1) setPage({ ...page, current: 1 });
  }

  const chosen = useMemo(() => resultColumns(picked, forms), [picked, forms]);
  // the query key hashes the body by value: a new object of the same request reads the cache
  const body: CohortRowsRequest | null = cohort
    ? {
        cohort,
        columns: chosen.map(({ form, field }) => ({ form, field })),
        current: page.current,
        size: page.size,
        sort: sort.key,
        order: sort.order,
      }
    : null;
  const rows = useCohortRows(body);
  const dictLabels = useDictLabels(chosen, rows.data?.records ?? NO_ROWS);

  const onPick = (values: string[]) => {
    const next = values.slice(0, MAX_RESULT_COLUMNS);
    setPicked(next);
    // a sort by a column no longer shown goes back to the patient number
    if (sort.key.includes('.') && !next.some((v) => v.replace('/', '.') === sort.key)) setSort(DEFAULT_SORT);
  };

  const onChange: TableProps<CohortRowVO>['onChange'] = (
    pagination: TablePaginationConfig,
    _filters,
    sorter,
    extra,
  ) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      setSort(
        one?.order && one.columnKey
          ? { key: String(one.columnKey), order: one.order === 'ascend' ? 'asc' : 'desc' }
          : DEFAULT_SORT,
      );
      setPage({ ...page, current: 1 });
      return;
    }
    if (extra.action === 'paginate') {
      const size = pagination.pageSize ?? page.size;
      setPage({ current: size !== page.size ? 1 : (pagination.current ?? 1), size });
    }
  };

  const sortOrder = (key: string) =>
    sort.key === key ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;

  const columns: TableColumnsType<CohortRowVO> = [
    {
      key: 'patientNo',
      title: '患者编号',
      fixed: 'left',
      width: 130,
      sorter: true,
      sortOrder: sortOrder('patientNo'),
      render: (_: unknown, r: CohortRowVO) => (
        <Link to={`/patient/file?id=${encodeURIComponent(r.id)}`}>{r.patientNo}</Link>
      ),
    },
    {
      key: 'name',
      title: '姓名',
      width: 100,
      render: (_: unknown, r: CohortRowVO) => (r.masked ? <span title={MASKED_HINT}>{r.name}</span> : r.name),
    },
    {
      key: 'gender',
      title: '性别',
      width: 72,
      render: (_: unknown, r: CohortRowVO) => labelOf<PatientGender>(PATIENT_GENDER_LABELS, r.gender) ?? dash,
    },
    { key: 'center', title: '中心', width: 150, ellipsis: true, dataIndex: 'centerName' },
    {
      key: 'enrolDate',
      title: '入组日期',
      width: 120,
      sorter: true,
      sortOrder: sortOrder('enrolDate'),
      render: (_: unknown, r: CohortRowVO) => r.enrolDate ?? dash,
    },
    {
      key: 'status',
      title: '状态',
      width: 90,
      render: (_: unknown, r: CohortRowVO) => labelOf<PatientStatus>(PATIENT_STATUS_LABELS, r.status),
    },
    ...chosen.map((c) => {
      const sortable = canPii || c.definition?.phi !== true;
      return {
        key: c.key,
        title: <span title={`${c.formTitle} · ${c.field}`}>{c.definition?.label ?? c.field}</span>,
        width: 140,
        ellipsis: true,
        sorter: sortable ? true : undefined,
        sortOrder: sortable ? sortOrder(c.key) : null,
        render: (_: unknown, r: CohortRowVO) => {
          if (r.withheld.includes(c.key))
            return (
              <Typography.Text type="secondary" title={MASKED_HINT}>
                {WITHHELD_TEXT}
              </Typography.Text>
            );
          const text = formatCell(c.definition, r.values[c.key], dictLabels.get(c.key));
          return text === '' ? dash : text;
        },
      };
    }),
  ];

  // a refusal of the cohort itself shows at its conditions (the count's issues): here only a pointer to them
  const error = !rows.isError
    ? null
    : rows.error instanceof ApiError && rows.error.body?.issues?.some((i) => i.path.startsWith('cohort.'))
      ? '请先修正检索条件'
      : rows.error instanceof ApiError && rows.error.message
        ? rows.error.message
        : '检索结果加载失败，请稍后重试';

  return (
    <section aria-label="检索结果" style={{ marginTop: 16 }}>
      <Flex align="center" gap={8} wrap style={{ marginBottom: 8 }}>
        <Typography.Text strong>检索结果</Typography.Text>
        <TreeSelect
          aria-label="显示列"
          style={{ minWidth: 320, flex: 1 }}
          multiple
          treeData={tree}
          value={picked}
          onChange={onPick}
          showSearch={{ filterTreeNode }}
          treeDefaultExpandAll
          placeholder={`显示列：选择要显示的表单字段（最多${MAX_RESULT_COLUMNS}个）`}
          maxCount={MAX_RESULT_COLUMNS}
          allowClear
        />
      </Flex>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
      <Table<CohortRowVO>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={rows.data?.records ?? []}
        loading={rows.isFetching}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: cohort ? '没有匹配的患者' : '检索条件完成后显示结果' }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: rows.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 名患者`,
        }}
      />
    </section>
  );
}
