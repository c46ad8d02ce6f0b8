import { memo, useMemo, type CSSProperties, type ReactNode } from 'react';
import { Button, Typography } from 'antd';
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
  /** Marks by data path (`meds.2.dose`): shown beside the cell's input. Undefined when the group has none. */
  markers: ReadonlyMap<string, ReactNode> | undefined;
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
  markers,
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

  const cell: CSSProperties = { border: '1px solid #f0f0f0', padding: '6px 8px', verticalAlign: 'top' };
  const head: CSSProperties = { ...cell, background: '#fafafa', fontWeight: 500, textAlign: 'left' };
  // A plain table: antd's Table measures the scrollbar on mount (a forced layout of the whole form).
  return (
    <div className="crf-group">
      <div style={{ overflowX: 'auto' }}>
        <table style={{ borderCollapse: 'collapse', width: '100%' }} aria-label={field.label}>
          <thead>
            <tr>
              <th style={{ ...head, width: 40 }}>#</th>
              {columns.map((column) => (
                <th key={column.key} style={head} scope="col">
                  {column.required && <span style={{ color: '#ff4d4f', marginRight: 4 }}>*</span>}
                  {column.label}
                  {column.unit ? `（${column.unit}）` : ''}
                </th>
              ))}
              {!readOnly && <th style={{ ...head, width: 56 }}>操作</th>}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td style={{ ...cell, textAlign: 'center' }} colSpan={columns.length + (readOnly ? 1 : 2)}>
                  <Typography.Text type="secondary">暂无记录</Typography.Text>
                </td>
              </tr>
            )}
            {rows.map((row, index) => (
              <tr key={index}>
                <td style={cell}>{index + 1}</td>
                {columns.map((column) => {
                  const path = `${field.key}.${index}.${column.key}`;
                  if (hidden.has(path)) {
                    return (
                      <td key={column.key} style={cell}>
                        <Typography.Text type="secondary">—</Typography.Text>
                      </td>
                    );
                  }
                  const own = cellIssues(index, column.key);
                  const marker = markers?.get(path);
                  const input = (
                    <ValueCell
                      field={column}
                      id={`${idPrefix}-${field.key}-${index}-${column.key}`}
                      ariaLabel={`${column.label}（第${index + 1}行）`}
                      value={row[column.key]}
                      missingCodes={missingCodes}
                      onChange={(next) => setCell(index, column.key, next)}
                      disabled={readOnly}
                      status={issueStatus(own)}
                    />
                  );
                  return (
                    <td key={column.key} style={{ ...cell, minWidth: 140 }}>
                      {marker == null ? (
                        input
                      ) : (
                        <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
                          <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
                          <span className="crf-field-marker">{marker}</span>
                        </div>
                      )}
                      <IssueList issues={own} />
                    </td>
                  );
                })}
                {!readOnly && (
                  <td style={cell}>
                    <Button
                      type="text"
                      danger
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={`删除第${index + 1}行`}
                      disabled={rows.length <= minRows}
                      onClick={() => setRows(rows.filter((_row, i) => i !== index))}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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

/** Memo comparison of a field's props (a group's and any field item's, which have the same shape). */
export function sameGroupProps(a: GroupFieldProps, b: GroupFieldProps): boolean {
  return (
    a.field === b.field &&
    a.value === b.value &&
    a.hiddenCells === b.hiddenCells &&
    a.missingCodes === b.missingCodes &&
    a.onFieldChange === b.onFieldChange &&
    a.readOnly === b.readOnly &&
    a.idPrefix === b.idPrefix &&
    a.markers === b.markers &&
    sameIssues(a.issues, b.issues)
  );
}
