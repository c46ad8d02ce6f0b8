import { useMemo, useState } from 'react';
import { Alert, Button, Empty, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { DictOptionVO, DictVO } from '@registry/shared/contracts/dictionary';
import { PERMISSIONS, hasAnyPermission } from '@registry/shared/permissions';
import { useDictOptionPage } from '../../../api/dict-options';
import { Permission } from '../../../lib/permission';
import { useMenuStore } from '../../../lib/stores/menu-store';
import { withSuccessToast } from '../../../lib/toast';
import { useDeleteDict } from '../api/delete-dict';
import { useDeleteDictOption } from '../api/delete-dict-option';
import { useDicts } from '../../../api/dictionaries';
import { useUpdateDictOption } from '../api/update-dict-option';
import { DictFormDialog } from './dict-form-dialog';
import { DictImportDialog } from './dict-import-dialog';
import { DictOptionFormDialog } from './dict-option-form-dialog';

const WRITE = [PERMISSIONS.databaseConfig] as const;
const PAGE_SIZE = 20;

function DictList({
  dicts,
  selectedId,
  onSelect,
}: {
  dicts: DictVO[];
  selectedId: string | undefined;
  onSelect: (dict: DictVO) => void;
}) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? dicts.filter((d) => d.code.toLowerCase().includes(q) || d.name.toLowerCase().includes(q)) : dicts;
  }, [dicts, filter]);
  return (
    <>
      <Input.Search
        aria-label="搜索字典"
        placeholder="搜索字典名称或编码"
        allowClear
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        style={{ marginBottom: 8 }}
      />
      <div
        role="list"
        aria-label="字典列表"
        style={{
          maxHeight: 560,
          overflow: 'auto',
          border: '1px solid var(--ant-color-border, #d9d9d9)',
          borderRadius: 8,
        }}
      >
        {shown.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的字典" />}
        {shown.map((d) => (
          <div
            key={d.id}
            role="button"
            aria-pressed={d.id === selectedId}
            aria-label={`字典 ${d.name}`}
            tabIndex={0}
            onClick={() => onSelect(d)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') onSelect(d);
            }}
            style={{
              cursor: 'pointer',
              padding: '8px 16px',
              borderBottom: '1px solid var(--ant-color-split, #f0f0f0)',
              background: d.id === selectedId ? 'var(--ant-color-primary-bg, #e6f4ff)' : undefined,
            }}
          >
            <Space orientation="vertical" size={0} style={{ width: '100%' }}>
              <Space size={6} wrap>
                <Typography.Text strong>{d.name}</Typography.Text>
                {d.builtIn && <Tag color="blue">内置</Tag>}
              </Space>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {d.code} · {d.optionCount} 项
              </Typography.Text>
            </Space>
          </div>
        ))}
      </div>
    </>
  );
}

function OptionTable({ dict, canWrite }: { dict: DictVO; canWrite: boolean }) {
  const [keyword, setKeyword] = useState('');
  const [current, setCurrent] = useState(1);
  const [size, setSize] = useState(PAGE_SIZE);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<DictOptionVO | null>(null);
  const options = useDictOptionPage({
    dictCode: dict.code,
    current,
    size,
    ...(keyword ? { keyword } : {}),
  });
  const update = useUpdateDictOption();
  const remove = useDeleteDictOption();
  const records = options.data?.records ?? [];
  const hierarchical = records.some((o) => o.parentCode !== null);
  const editable = canWrite && !dict.builtIn;

  return (
    <>
      <div className="table-toolbar">
        <Space orientation="vertical" size={0}>
          <Space size={6}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {dict.name}
            </Typography.Title>
            {dict.builtIn && <Tag color="blue">内置</Tag>}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {dict.builtIn
              ? `系统内置，只读${dict.source ? ` · 来源：${dict.source}` : ''}`
              : (dict.description ?? dict.code)}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Input.Search
            aria-label="搜索选项"
            placeholder="按编码、名称或拼音首字母搜索"
            allowClear
            onSearch={(value) => {
              setKeyword(value.trim());
              setCurrent(1);
            }}
            style={{ width: 240 }}
          />
          {editable && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              新增选项
            </Button>
          )}
        </Space>
      </div>
      {options.isError && <Alert type="error" showIcon title="选项加载失败，请稍后重试" />}
      <Table<DictOptionVO>
        rowKey="id"
        size="small"
        loading={options.isFetching}
        dataSource={records}
        locale={{ emptyText: keyword ? '没有匹配的选项' : '暂无选项' }}
        pagination={{
          current,
          pageSize: size,
          total: options.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 项`,
          onChange: (page, pageSize) => {
            setCurrent(pageSize !== size ? 1 : page);
            setSize(pageSize);
          },
        }}
        columns={[
          { title: '编码', dataIndex: 'code', width: 160 },
          { title: '名称', dataIndex: 'label' },
          ...(hierarchical
            ? [{ title: '上级编码', dataIndex: 'parentCode', width: 140, render: (v: string | null) => v ?? '—' }]
            : []),
          { title: '排序', dataIndex: 'sort', width: 80 },
          {
            title: '状态',
            dataIndex: 'enabled',
            width: 90,
            render: (enabled: boolean) => (enabled ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          ...(editable
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  width: 200,
                  render: (_: unknown, o: DictOptionVO) => (
                    <Space size={0}>
                      <Button type="link" size="small" aria-label={`编辑 ${o.label}`} onClick={() => setEditing(o)}>
                        编辑
                      </Button>
                      <Button
                        type="link"
                        size="small"
                        aria-label={`${o.enabled ? '停用' : '启用'} ${o.label}`}
                        onClick={() => void withSuccessToast(update.mutateAsync({ id: o.id, enabled: !o.enabled }))}
                      >
                        {o.enabled ? '停用' : '启用'}
                      </Button>
                      <Popconfirm
                        title={`确定删除选项“${o.label}”吗？`}
                        description="已录入此编码的数据将无法显示名称；不再使用的选项建议停用。"
                        okText="删除"
                        cancelText="取消"
                        onConfirm={() => withSuccessToast(remove.mutateAsync(o.id))}
                      >
                        <Button type="link" size="small" danger aria-label={`删除 ${o.label}`}>
                          删除
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editable && (
        <>
          <DictOptionFormDialog open={creating} dict={dict} onClose={() => setCreating(false)} />
          <DictOptionFormDialog open={editing !== null} dict={dict} option={editing} onClose={() => setEditing(null)} />
        </>
      )}
    </>
  );
}

/**
 * The option lists the `dict` fields of the forms draw from (a tab of the database configuration page): on the left
 * the built-in lists (read-only, with their source) and the tenant's own; on the right the selected list's options,
 * paged and searched on the server. Writing needs `database.config`.
 */
export function DictionaryManager() {
  const dicts = useDicts();
  const held = useMenuStore((s) => s.permissions);
  const canWrite = hasAnyPermission(held, WRITE);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<DictVO | null>(null);
  const [importing, setImporting] = useState<DictVO | null>(null);
  const remove = useDeleteDict();
  const list = dicts.data ?? [];
  const selected = list.find((d) => d.id === selectedId) ?? list[0];

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <div style={{ width: 300, flex: 'none' }}>
        <div className="table-toolbar">
          <Typography.Text type="secondary">选项字典</Typography.Text>
          <Permission codes={WRITE}>
            <Button size="small" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              新建字典
            </Button>
          </Permission>
        </div>
        {dicts.isError && <Alert type="error" showIcon title="字典加载失败，请稍后重试" />}
        <DictList dicts={list} selectedId={selected?.id} onSelect={(d) => setSelectedId(d.id)} />
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        {selected ? (
          <>
            {canWrite && !selected.builtIn && (
              <Space style={{ marginBottom: 8 }}>
                <Button size="small" onClick={() => setEditing(selected)}>
                  编辑字典
                </Button>
                <Button size="small" icon={<UploadOutlined />} onClick={() => setImporting(selected)}>
                  导入选项
                </Button>
                <Popconfirm
                  title={`确定删除字典“${selected.name}”吗？`}
                  description="字典及其全部选项将被删除；被表单使用的字典不能删除。"
                  okText="删除"
                  cancelText="取消"
                  onConfirm={async () => {
                    if (await withSuccessToast(remove.mutateAsync(selected.id))) setSelectedId(undefined);
                  }}
                >
                  <Button size="small" danger>
                    删除字典
                  </Button>
                </Popconfirm>
              </Space>
            )}
            <OptionTable key={selected.id} dict={selected} canWrite={canWrite} />
          </>
        ) : (
          !dicts.isPending && <Empty description="暂无字典" />
        )}
      </div>
      <DictFormDialog open={creating} onClose={() => setCreating(false)} onSaved={(d) => setSelectedId(d.id)} />
      <DictFormDialog open={editing !== null} dict={editing} onClose={() => setEditing(null)} />
      {importing && <DictImportDialog dict={importing} onClose={() => setImporting(null)} />}
    </div>
  );
}
