import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Card, Space, Table, Tooltip, Typography } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import type { TableColumnsType as ColumnsType, TablePaginationConfig, TableProps } from 'antd';
import {
  DeleteOutlined,
  EyeInvisibleOutlined,
  ImportOutlined,
  PlusOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { PatientListItem } from '@registry/shared/contracts/patient';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { Permission } from '../../../lib/permission';
import { ProjectScope } from '../../../lib/project-scope';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { useCenters } from '../../../api/centers';
import { usePatientPage } from '../api/page-patients';
import { usePublished } from '../../../api/form-definitions';
import { listFieldsOf } from '../hooks/list-fields';
import {
  DEFAULT_PAGE_SIZE,
  isFiltered,
  PAGE_SIZES,
  parseUrlQuery,
  toPageRequest,
  toUrlSearch,
  type UrlQuery,
} from '../hooks/list-query';
import { useColumnLayout, type AvailableColumn } from '../hooks/use-column-layout';
import { useDictLabels } from '../hooks/use-dict-labels';
import { usePrivateQuery } from '../hooks/use-private-query';
import { MAX_DELETE, type DeleteTarget } from './delete-limit';
import { fieldColumn, fixedColumns, MASKED_HINT, type PatientColumn } from './patient-columns';
import { PatientFilterBar, type FilterChange } from './patient-filter-bar';
import { ResizableHeaderCell, type ResizableHeaderCellProps } from './resizable-header-cell';
import './patient-list.css';
import { listEmptyText } from '../../../components/list-empty/list-empty';

// The column settings drawer (drag and drop), the delete and the import dialogs load when first opened.
const ColumnSettings = lazy(() => import('./column-settings').then((m) => ({ default: m.ColumnSettings })));
const DeletePatientsDialog = lazy(() =>
  import('./delete-patients-dialog').then((m) => ({ default: m.DeletePatientsDialog })),
);
const ImportDialog = lazy(() => import('./import-dialog').then((m) => ({ default: m.ImportDialog })));

const TABLE_COMPONENTS = { header: { cell: ResizableHeaderCell } };
const ACTIONS_WIDTH = 150;

function PatientList() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const url = useMemo(() => parseUrlQuery(params), [params]);
  const [hidden, setHidden] = usePrivateQuery();
  const held = useMenuStore((s) => s.permissions);
  const can = useCallback((code: string) => hasAnyPermission(held, [code]), [held]);
  const canPii = can(PERMISSIONS.patientPii);
  const canDelete = can(PERMISSIONS.patientDelete);
  const canEdit = can(PERMISSIONS.patientEdit);

  const published = usePublished();
  const centers = useCenters();
  const fields = useMemo(() => listFieldsOf(published.data), [published.data]);
  // Without `patient.pii` a PHI field is shown (its values withheld) but offers no filter.
  const filterFields = useMemo(() => fields.filter((f) => canPii || !f.phi), [fields, canPii]);

  // The columns the page can show: the fixed ones, then one per list-flagged CRF field.
  const baseColumns = useMemo(() => fixedColumns(canPii), [canPii]);
  const available = useMemo<AvailableColumn[]>(
    () => [
      ...baseColumns.map((c) => ({ key: c.key, defaultVisible: c.defaultVisible })),
      ...fields.map((f) => ({ key: `field:${f.key}`, defaultVisible: true })),
    ],
    [baseColumns, fields],
  );
  const layout = useColumnLayout('patient-list', available);
  const defaultSize = layout.pageSize ?? DEFAULT_PAGE_SIZE;

  // The list waits for the definitions (its CRF filters and sort need them) and the saved page size.
  const definitionsKnown = !published.isPending;
  const body = useMemo(
    () => toPageRequest(url, hidden, fields, defaultSize, canPii),
    [url, hidden, fields, defaultSize, canPii],
  );
  const page = usePatientPage(body, definitionsKnown && layout.ready);
  const rows = useMemo(() => page.data?.records ?? [], [page.data]);
  const dictLabels = useDictLabels(fields, rows);

  const columnsByKey = useMemo(() => {
    const map = new Map<string, PatientColumn>(baseColumns.map((c) => [c.key, c]));
    const fixedLabels = new Set(baseColumns.map((c) => c.label));
    for (const field of fields)
      map.set(
        `field:${field.key}`,
        fieldColumn(field, {
          canSeePhi: canPii,
          dictLabels: dictLabels.get(field.key),
          sameAsFixed: fixedLabels.has(field.label),
        }),
      );
    return map;
  }, [baseColumns, fields, canPii, dictLabels]);

  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [deleting, setDeleting] = useState<DeleteTarget[] | null>(null);
  const [importing, setImporting] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The drawer stays mounted from its first opening on (its closing animation, its scroll position).
  const [settingsOpened, setSettingsOpened] = useState(false);

  const go = useCallback(
    (next: Partial<UrlQuery>) => setParams(toUrlSearch({ ...url, ...next }), { preventScrollReset: true }),
    [setParams, url],
  );

  const onSearch = (change: FilterChange) => {
    const next = toUrlSearch({
      current: 1,
      size: url.size,
      sortField: url.sortField,
      sortOrder: url.sortOrder,
      ...change.url,
    });
    // 查询 with nothing changed reads the page again (someone else may have added patients meanwhile).
    if (next.toString() === toUrlSearch(url).toString() && JSON.stringify(change.hidden) === JSON.stringify(hidden)) {
      void page.refetch();
      return;
    }
    setHidden(change.hidden);
    setParams(next);
  };

  const onTableChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: Parameters<NonNullable<TableProps<PatientListItem>['onChange']>>[2],
    extra: { action: 'paginate' | 'sort' | 'filter' },
  ) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const column = one?.columnKey ? columnsByKey.get(String(one.columnKey)) : undefined;
      const sortField = one?.order && column?.sortField ? column.sortField : undefined;
      go({ current: 1, sortField, sortOrder: one?.order === 'ascend' ? 'asc' : 'desc' });
      return;
    }
    if (extra.action === 'paginate') {
      const size = pagination.pageSize ?? defaultSize;
      if (size !== defaultSize) layout.setPageSize(size);
      go({ current: size !== (url.size ?? defaultSize) ? 1 : (pagination.current ?? 1), size: undefined });
    }
  };

  const { columns: layoutColumns, setWidth } = layout;
  const tableColumns: ColumnsType<PatientListItem> = useMemo(() => {
    const visible = layoutColumns.filter((c) => c.visible || columnsByKey.get(c.key)?.locked);
    const out: ColumnsType<PatientListItem> = visible.flatMap((config) => {
      const column = columnsByKey.get(config.key);
      if (!column) return [];
      const width = config.width ?? column.defaultWidth;
      return [
        {
          key: column.key,
          title: column.title,
          width,
          ellipsis: true,
          align: column.align,
          fixed: column.key === 'patientNo' ? ('left' as const) : undefined,
          sorter: column.sortField ? true : undefined,
          sortOrder:
            column.sortField && url.sortField === column.sortField
              ? url.sortOrder === 'asc'
                ? ('ascend' as const)
                : ('descend' as const)
              : null,
          showSorterTooltip: false,
          render: (_: unknown, row: PatientListItem) => column.render(row),
          onHeaderCell: (): ResizableHeaderCellProps => ({
            resizeWidth: width,
            resizeLabel: column.label,
            onResizeEnd: (next) => setWidth(column.key, next),
          }),
        },
      ];
    });
    out.push({
      key: 'actions',
      title: '操作',
      width: ACTIONS_WIDTH,
      fixed: 'right',
      render: (_: unknown, p: PatientListItem) => (
        <Space size={0}>
          {canEdit && (
            <Link className="patient-action" to={`/patient/edit?id=${encodeURIComponent(p.id)}`}>
              编辑
            </Link>
          )}
          <Link className="patient-action" to={`/patient/file?id=${encodeURIComponent(p.id)}`}>
            档案
          </Link>
          {canDelete && (
            <Button
              type="link"
              size="small"
              danger
              aria-label={`删除 ${p.patientNo}`}
              onClick={() => {
                setDeleting([{ id: p.id, patientNo: p.patientNo }]);
              }}
            >
              删除
            </Button>
          )}
        </Space>
      ),
    });
    return out;
  }, [layoutColumns, setWidth, columnsByKey, url.sortField, url.sortOrder, canEdit, canDelete]);

  // A page past the end (its last patients were deleted, or an old link): the last page instead.
  const total = page.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / (url.size ?? defaultSize)));
  const pastEnd = page.isSuccess && !page.isPlaceholderData && rows.length === 0 && url.current > lastPage;
  useEffect(() => {
    if (pastEnd) setParams(toUrlSearch({ ...url, current: lastPage }), { replace: true });
  }, [pastEnd, lastPage, url, setParams]);

  const scrollX = tableColumns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 120), 0) + 48;
  const anyMasked = rows.some((r) => r.masked);
  const filtered = isFiltered(url, hidden);

  return (
    <>
      <PatientFilterBar
        url={url}
        hidden={hidden}
        fields={filterFields}
        centers={centers.data ?? []}
        canSearchId={canPii}
        canFilterFollowup={can(PERMISSIONS.followupList)}
        onSearch={onSearch}
      />
      <div className="table-toolbar patient-toolbar">
        <Space wrap>
          {selected.size > 0 ? (
            <>
              <Typography.Text>已选择 {selected.size} 名患者</Typography.Text>
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selected.size > MAX_DELETE}
                onClick={() => {
                  setDeleting([...selected].map(([id, patientNo]) => ({ id, patientNo })));
                }}
              >
                批量删除
              </Button>
              <Button type="link" onClick={() => setSelected(new Map())}>
                取消选择
              </Button>
              {selected.size > MAX_DELETE && (
                <Typography.Text type="warning">一次最多删除{MAX_DELETE}名患者</Typography.Text>
              )}
            </>
          ) : (
            <Typography.Text type="secondary">
              {page.data
                ? `${page.data.totalExact ? '共' : '约'} ${page.data.total} 名患者${filtered ? '（已筛选）' : ''}`
                : '\u00a0'}
            </Typography.Text>
          )}
          {anyMasked && (
            <Tooltip title="姓名、身份证号、手机号按权限脱敏显示">
              <Typography.Text type="secondary">
                <EyeInvisibleOutlined /> {MASKED_HINT}
              </Typography.Text>
            </Tooltip>
          )}
        </Space>
        <Space wrap>
          <Permission codes={[PERMISSIONS.patientAdd]}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/patient/add')}>
              新增患者
            </Button>
            <Button
              icon={<ImportOutlined />}
              onClick={() => {
                setImporting(true);
              }}
            >
              导入
            </Button>
          </Permission>
          <Button
            icon={<SettingOutlined />}
            onClick={() => {
              setSettingsOpened(true);
              setSettingsOpen(true);
            }}
          >
            列设置
          </Button>
          <Tooltip title="刷新">
            <Button
              aria-label="刷新"
              icon={<ReloadOutlined />}
              loading={page.isFetching}
              onClick={() => void page.refetch()}
            />
          </Tooltip>
        </Space>
      </div>
      {published.isError && (
        <LazyAlert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title="表单定义加载失败：表单字段列和筛选暂不可用"
        />
      )}
      {page.isError && (
        <LazyAlert type="error" showIcon style={{ marginBottom: 12 }} title="患者列表加载失败，请稍后重试" />
      )}
      <Table<PatientListItem>
        className="patient-table"
        rowKey="id"
        size="middle"
        tableLayout="fixed"
        components={TABLE_COMPONENTS}
        columns={tableColumns}
        dataSource={rows}
        loading={page.isFetching}
        sticky={{ offsetHeader: 48 }}
        scroll={{ x: scrollX }}
        locale={{ emptyText: listEmptyText(page, filtered ? '没有符合条件的患者' : '暂无患者') }}
        rowSelection={
          canDelete
            ? {
                selectedRowKeys: [...selected.keys()],
                preserveSelectedRowKeys: true,
                columnWidth: 40,
                fixed: 'left',
                onChange: (keys, selectedRows) => {
                  const next = new Map<string, string>();
                  for (const key of keys) {
                    const id = String(key);
                    const row = selectedRows.find((r) => r?.id === id);
                    next.set(id, row?.patientNo ?? selected.get(id) ?? id);
                  }
                  setSelected(next);
                },
              }
            : undefined
        }
        pagination={{
          current: url.current,
          pageSize: url.size ?? defaultSize,
          total: page.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showQuickJumper: true,
          showTotal: (total, [from, to]) =>
            `第 ${from}-${to} 条，${page.data?.totalExact === false ? '约' : '共'} ${total} 条`,
        }}
        onChange={onTableChange}
      />
      <Suspense fallback={null}>
        {settingsOpened && (
          <ColumnSettings
            open={settingsOpen}
            onClose={() => setSettingsOpen(false)}
            layout={layout.columns}
            columns={columnsByKey}
            customised={layout.customised}
            onChange={layout.change}
            onReset={layout.reset}
          />
        )}
        {deleting && (
          <DeletePatientsDialog
            targets={deleting}
            onClose={() => setDeleting(null)}
            onDeleted={(ids) => {
              setDeleting(null);
              setSelected((current) => {
                const next = new Map(current);
                for (const id of ids) next.delete(id);
                return next;
              });
            }}
          />
        )}
        {importing && <ImportDialog onClose={() => setImporting(false)} />}
      </Suspense>
    </>
  );
}

/**
 * `/patient/list`: the current project's patients — server-side paging, sorting and filters kept in the address
 * (identifying filters in memory only), columns chosen, ordered and sized per user, batch delete with a reason, import
 * from Excel with a dry run.
 */
export function PatientListPage() {
  const projectName = useProjectStore((s) => s.projectName);
  return (
    <Card
      title="患者列表"
      variant="borderless"
      extra={projectName && <Typography.Text type="secondary">{projectName}</Typography.Text>}
    >
      <ProjectScope>
        <PatientList />
      </ProjectScope>
    </Card>
  );
}
