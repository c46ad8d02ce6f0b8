import { memo, useMemo } from 'react';
import { Button, Table, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { FieldDefinition, GroupColumn, MissingCode } from '@registry/shared/forms/definition';
import { IssueList, issueStatus, sameIssues } from './issue-list';
import { ValueCell } from './value-cell';

type Row = Record<string, unknown>;

function asRows(value: unknown): Row[] {
  return Array.isArray(value) ? value.map((r) => (typeof r === 'object' && r !== null ? (r as Row) : {})) : [];
}

export type GroupFieldProps = {
  field: FieldDefinition;
  idPrefix: string;
  value: unknown;
  /** Issues of the group itself (`meds`) and of its cells (`meds.2.dose`). */
  issues: readonly RecordIssue[];
  /** Hidden cell paths (`meds.2.dose`) joined by newlines: a primitive, so an unchanged group does not re-render. */
  hiddenCells: string;
  missingCodes: readonly MissingCode[];
  onFieldChange: (key: string, value: unknown) => void;
  readOnly: boolean;
};

/** A repeating group: an editable table, one row per entry, with the group's columns; rows within min/max. */
export const GroupField = memo(function GroupField({
  field,
  idPrefix,
  value,
  issues,
  hiddenCells,
  missingCodes,
  onFieldChange,
  readOnly,
}: GroupFieldProps) {
  const rows = useMemo(() => asRows(value), [value]);
  const hidden = useMemo(() => new Set(hiddenCells ? hiddenCells.split('\n') : []), [hiddenCells]);
  const columns: GroupColumn[] = (field.fields ?? []).filter((c) => c.type !== 'section' && c.type !== 'description');
  const minRows = field.minRows ?? 0;
  const maxRows = field.maxRows ?? Infinity;

  const setRows = (next: Row[]) => onFieldChange(field.key, next.length > 0 ? next : undefined);
  const setCell = (index: number, key: string, cell: unknown) => {
    const next = rows.map((row, i) => {
      if (i !== index) return row;
      const copy = { ...row };
      if (cell === undefined) delete copy[key];
      else copy[key] = cell;
      return copy;
    });
    setRows(next);
  };

  const cellIssues = (index: number, key: string) => issues.filter((i) => i.path === `${field.key}.${index}.${key}`);

  return (
    <div className="crf-group">
      <Table<{ index: number }>
        size="small"
        bordered
        pagination={false}
        rowKey="index"
        dataSource={rows.map((_row, index) => ({ index }))}
        locale={{ emptyText: '暂无记录' }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '#', key: '#', width: 48, render: (_v, r) => r.index + 1 },
          ...columns.map((column) => ({
            key: column.key,
            title: (
              <span>
                {column.required && <span style={{ color: '#ff4d4f', marginRight: 4 }}>*</span>}
                {column.label}
                {column.unit ? `（${column.unit}）` : ''}
              </span>
            ),
            render: (_v: unknown, r: { index: number }) => {
              const path = `${field.key}.${r.index}.${column.key}`;
              if (hidden.has(path)) return <Typography.Text type="secondary">—</Typography.Text>;
              const own = cellIssues(r.index, column.key);
              return (
                <div style={{ minWidth: 140 }}>
                  <ValueCell
                    field={column}
                    id={`${idPrefix}-${field.key}-${r.index}-${column.key}`}
                    ariaLabel={`${column.label}（第${r.index + 1}行）`}
                    value={rows[r.index]?.[column.key]}
                    missingCodes={missingCodes}
                    onChange={(cell) => setCell(r.index, column.key, cell)}
                    disabled={readOnly}
                    status={issueStatus(own)}
                  />
                  <IssueList issues={own} />
                </div>
              );
            },
          })),
          ...(readOnly
            ? []
            : [
                {
                  key: 'actions',
                  title: '操作',
                  width: 64,
                  render: (_v: unknown, r: { index: number }) => (
                    <Button
                      type="text"
                      danger
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={`删除第${r.index + 1}行`}
                      disabled={rows.length <= minRows}
                      onClick={() => setRows(rows.filter((_row, i) => i !== r.index))}
                    />
                  ),
                },
              ]),
        ]}
      />
      {!readOnly && (
        <Button
          type="dashed"
          size="small"
          icon={<PlusOutlined />}
          style={{ marginTop: 8 }}
          disabled={rows.length >= maxRows}
          onClick={() => setRows([...rows, {}])}
        >
          {`添加${field.label}`}
        </Button>
      )}
    </div>
  );
}, sameGroupProps);

function sameGroupProps(a: GroupFieldProps, b: GroupFieldProps): boolean {
  return (
    a.field === b.field &&
    a.value === b.value &&
    a.hiddenCells === b.hiddenCells &&
    a.missingCodes === b.missingCodes &&
    a.onFieldChange === b.onFieldChange &&
    a.readOnly === b.readOnly &&
    a.idPrefix === b.idPrefix &&
    sameIssues(a.issues, b.issues)
  );
}
