import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Badge, Button, Card, Empty, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { LazyAlert } from '../../../components/lazy-alert/lazy-alert';
import type { TablePaginationConfig } from 'antd';
import { DownloadOutlined, ReloadOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router';
import type { TaskCounts, TaskListItem } from '@registry/shared/contracts/followup';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { TASK_STATE_LABELS } from '@registry/shared/followup/schedule';
import { useCenters } from '../../../api/centers';
import { ProjectScope } from '../../../lib/project-scope';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { useProjectStore } from '../../../lib/stores/project-store';
import { useTaskCounts } from '../api/count-tasks';
import { listEmptyText } from '../../../components/list-empty/list-empty';
import { exportTasks } from '../api/export-tasks';
import { useTenantDoctors } from '../../../api/tenant-doctors';
import { usePlans } from '../../../api/followup-plans';
import { useTaskPage } from '../api/page-tasks';
import { useWorklistKeyword } from '../hooks/use-keyword';
import {
  isFiltered,
  PAGE_SIZES,
  parseWorklistUrl,
  today as todayOf,
  toTaskFilter,
  toTaskPageRequest,
  toWorklistSearch,
  WORKLIST_TABS,
  type WorklistTab,
  type WorklistUrl,
} from '../hooks/worklist-query';
import { taskHref, worklistColumns } from './worklist-columns';
import { WorklistFilterBar, type WorklistFilters } from './worklist-filter-bar';
import './followup.css';

// 分配给… loads when first opened.
const AssignDialog = lazy(() => import('./assign-dialog').then((m) => ({ default: m.AssignDialog })));

const EMPTY_TEXT: Readonly<Record<WorklistTab, string>> = {
  due: '今天没有待随访的患者',
  overdue: '没有超窗的随访，继续保持',
  upcoming: '没有未到期的随访任务',
  done: '还没有已完成的随访',
  lost: '没有失访的随访任务',
};

function TabLabel({ tab, counts }: { tab: WorklistTab; counts: TaskCounts | undefined }) {
  const count = counts?.[tab];
  return (
    <span className={tab === 'overdue' ? 'followup-tab-overdue' : undefined}>
      {TASK_STATE_LABELS[tab]}
      {/* No count until the counts arrive: a 0 would say "nothing" before the answer. */}
      {count !== undefined && (
        <Badge
          count={count ?? 0}
          showZero
          overflowCount={9999}
          color={tab === 'overdue' && count ? 'red' : tab === 'due' ? 'blue' : '#bfbfbf'}
          style={{ marginInlineStart: 6 }}
        />
      )}
    </span>
  );
}

function Worklist() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const url = useMemo(() => parseWorklistUrl(params), [params]);
  const [keyword, setKeyword] = useWorklistKeyword();
  const held = useMenuStore((s) => s.permissions);
  const canEdit = hasAnyPermission(held, [PERMISSIONS.followupEdit]);
  const today = todayOf();

  const doctors = useTenantDoctors();
  const centers = useCenters();
  const plans = usePlans();
  const filter = useMemo(() => toTaskFilter(url, keyword), [url, keyword]);
  const body = useMemo(() => toTaskPageRequest(url, keyword), [url, keyword]);
  const counts = useTaskCounts(filter);
  const page = useTaskPage(body);
  const rows = page.data?.records ?? [];

  const [selected, setSelected] = useState<string[]>([]);
  const [assigning, setAssigning] = useState(false);
  const [exporting, setExporting] = useState(false);

  const go = useCallback(
    (next: Partial<WorklistUrl>, replace = false) =>
      setParams(toWorklistSearch({ ...url, ...next }), { preventScrollReset: true, replace }),
    [setParams, url],
  );

  const onSearch = (filters: WorklistFilters, nextKeyword: string | undefined) => {
    setKeyword(nextKeyword);
    setSelected([]);
    setParams(toWorklistSearch({ tab: url.tab, current: 1, size: url.size, ...filters }));
  };

  const onTableChange = (pagination: TablePaginationConfig) => {
    const size = pagination.pageSize ?? url.size;
    go({ size, current: size !== url.size ? 1 : (pagination.current ?? 1) });
  };

  const download = async () => {
    setExporting(true);
    try {
      await exportTasks({ ...filter, state: url.tab }, today);
    } catch {
      // The request layer showed why.
    } finally {
      setExporting(false);
    }
  };

  // A page past the end (its tasks were completed or moved meanwhile, or an old link): the last page instead.
  const lastPage = Math.max(1, Math.ceil((page.data?.total ?? 0) / url.size));
  const pastEnd = page.isSuccess && !page.isPlaceholderData && rows.length === 0 && url.current > lastPage;
  useEffect(() => {
    if (pastEnd) go({ current: lastPage }, true);
  }, [pastEnd, lastPage, go]);

  const columns = useMemo(() => worklistColumns(today), [today]);
  const filtered = isFiltered(url, keyword);
  const dueToday = counts.data?.dueToday ?? 0;

  return (
    <>
      <WorklistFilterBar
        url={url}
        keyword={keyword}
        doctors={doctors.data ?? []}
        centers={centers.data ?? []}
        plans={plans.data ?? []}
        onSearch={onSearch}
      />
      <Tabs
        activeKey={url.tab}
        onChange={(tab) => {
          setSelected([]);
          go({ tab: tab as WorklistTab, current: 1 });
        }}
        items={WORKLIST_TABS.map((tab) => ({ key: tab, label: <TabLabel tab={tab} counts={counts.data} /> }))}
        tabBarExtraContent={
          counts.data && (
            <Tag color={dueToday > 0 ? 'orange' : 'default'} data-testid="due-today">
              今日到期 {dueToday}
            </Tag>
          )
        }
      />
      <div className="followup-toolbar">
        <Space wrap>
          {selected.length > 0 ? (
            <>
              <Typography.Text>已选择 {selected.length} 条</Typography.Text>
              {canEdit && (
                <Button icon={<UserSwitchOutlined />} onClick={() => setAssigning(true)}>
                  分配给…
                </Button>
              )}
              <Button type="link" onClick={() => setSelected([])}>
                取消选择
              </Button>
            </>
          ) : (
            <Typography.Text type="secondary">
              {page.data ? `共 ${page.data.total} 条${filtered ? '（已筛选）' : ''}` : '\u00a0'}
            </Typography.Text>
          )}
        </Space>
        <Space wrap>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void download()}>
            导出
          </Button>
          <Tooltip title="刷新">
            <Button
              aria-label="刷新"
              icon={<ReloadOutlined />}
              loading={page.isFetching}
              onClick={() => {
                void page.refetch();
                void counts.refetch();
              }}
            />
          </Tooltip>
        </Space>
      </div>
      {page.isError && (
        <LazyAlert type="error" showIcon style={{ marginBottom: 12 }} title="随访列表加载失败，请稍后重试" />
      )}
      <Table<TaskListItem>
        className="followup-table"
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={page.isFetching}
        scroll={{ x: 1400 }}
        locale={{
          emptyText: listEmptyText(
            page,
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? `没有符合条件的${TASK_STATE_LABELS[url.tab]}任务` : EMPTY_TEXT[url.tab]}
            />,
          ),
        }}
        onRow={(task) => ({
          className: 'followup-row',
          onClick: (event) => {
            const target = event.target as HTMLElement;
            // The checkbox, the copy button and the link do their own thing.
            if (target.closest('.ant-table-selection-column, .ant-typography-copy, a, button')) return;
            void navigate(taskHref(task.id));
          },
        })}
        rowSelection={
          canEdit
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                columnWidth: 40,
                fixed: 'left',
                onChange: (keys) => setSelected(keys.map(String)),
              }
            : undefined
        }
        pagination={{
          current: url.current,
          pageSize: url.size,
          total: page.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (total, [from, to]) => `第 ${from}-${to} 条，共 ${total} 条`,
        }}
        onChange={onTableChange}
      />
      {assigning && (
        <Suspense fallback={null}>
          <AssignDialog
            taskIds={selected}
            doctors={doctors.data ?? []}
            onClose={() => setAssigning(false)}
            onAssigned={() => {
              setAssigning(false);
              setSelected([]);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/**
 * `/followup/list`: the nurse's morning view of the current project's follow-up tasks — tabs per state with counts
 * (待随访 first), filters in the address (keyword in memory), bulk assignment, export, a click opens the task.
 */
export function FollowupListPage() {
  const projectName = useProjectStore((s) => s.projectName);
  return (
    <Card
      title="随访列表"
      variant="borderless"
      extra={projectName && <Typography.Text type="secondary">{projectName}</Typography.Text>}
    >
      <ProjectScope>
        <Worklist />
      </ProjectScope>
    </Card>
  );
}
