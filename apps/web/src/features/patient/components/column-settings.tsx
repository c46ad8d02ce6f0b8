import { Button, Checkbox, Drawer, InputNumber, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, HolderOutlined } from '@ant-design/icons';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { PageColumnConfig } from '@registry/shared/contracts/page-config';
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './resizable-header-cell';
import type { PatientColumn } from './patient-columns';

export type ColumnSettingsProps = {
  open: boolean;
  onClose: () => void;
  /** Every column in display order with visibility and width. */
  layout: readonly PageColumnConfig[];
  columns: ReadonlyMap<string, PatientColumn>;
  customised: boolean;
  onChange: (layout: PageColumnConfig[]) => void;
  onReset: () => Promise<void>;
};

const POINTER_OPTIONS = { activationConstraint: { distance: 4 } };
const KEYBOARD_OPTIONS = { coordinateGetter: sortableKeyboardCoordinates };

type RowProps = {
  config: PageColumnConfig;
  column: PatientColumn;
  index: number;
  count: number;
  onChange: (next: PageColumnConfig) => void;
  onMove: (to: number) => void;
};

function ColumnRow({ config, column, index, count, onChange, onMove }: RowProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: config.key });
  return (
    <div
      ref={setNodeRef}
      className="column-settings-row"
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
    >
      <span className="column-settings-handle" aria-label={`拖动排序 ${column.label}`} {...attributes} {...listeners}>
        <HolderOutlined />
      </span>
      <Checkbox
        checked={config.visible || column.locked}
        disabled={column.locked}
        onChange={(e) => onChange({ ...config, visible: e.target.checked })}
        aria-label={`显示 ${column.label}`}
      >
        <span className="column-settings-label">
          {column.label}
          {column.hint && (
            <Typography.Text type="secondary" className="column-settings-hint">
              {column.hint}
            </Typography.Text>
          )}
        </span>
      </Checkbox>
      <Space size={4} className="column-settings-tools">
        <InputNumber
          size="small"
          min={MIN_COLUMN_WIDTH}
          max={MAX_COLUMN_WIDTH}
          step={10}
          precision={0}
          placeholder={String(column.defaultWidth)}
          value={config.width ?? null}
          onChange={(value) => {
            const { width: _old, ...rest } = config;
            onChange(typeof value === 'number' ? { ...rest, width: value } : rest);
          }}
          aria-label={`${column.label} 列宽`}
          suffix="px"
          style={{ width: 92 }}
        />
        <Tooltip title="上移">
          <Button
            size="small"
            type="text"
            icon={<ArrowUpOutlined />}
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
            aria-label={`上移 ${column.label}`}
          />
        </Tooltip>
        <Tooltip title="下移">
          <Button
            size="small"
            type="text"
            icon={<ArrowDownOutlined />}
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
            aria-label={`下移 ${column.label}`}
          />
        </Tooltip>
      </Space>
    </div>
  );
}

/**
 * 列设置: which columns show (the patient number always does), their order (drag the handle, or 上移/下移, or the
 * keyboard: Space on the handle then the arrow keys) and their widths. Every change applies at once and is saved for
 * the user; 恢复默认 drops the saved layout.
 */
export function ColumnSettings({ open, onClose, layout, columns, customised, onChange, onReset }: ColumnSettingsProps) {
  const sensors = useSensors(useSensor(PointerSensor, POINTER_OPTIONS), useSensor(KeyboardSensor, KEYBOARD_OPTIONS));
  const rows = layout.filter((c) => columns.has(c.key));
  const move = (from: number, to: number) => {
    if (to < 0 || to >= rows.length || from === to) return;
    onChange(arrayMove(rows, from, to));
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(
      rows.findIndex((c) => c.key === active.id),
      rows.findIndex((c) => c.key === over.id),
    );
  };
  const shown = rows.filter((c) => c.visible || columns.get(c.key)?.locked).length;

  return (
    <Drawer
      title="列设置"
      open={open}
      onClose={onClose}
      size={460}
      extra={
        <Popconfirm
          title="恢复默认列设置？"
          description="将恢复默认的列、顺序和列宽。"
          okText="恢复"
          cancelText="取消"
          onConfirm={() => onReset()}
          disabled={!customised}
        >
          <Button disabled={!customised}>恢复默认</Button>
        </Popconfirm>
      }
    >
      <Typography.Paragraph type="secondary">
        已显示 {shown}/{rows.length}{' '}
        列。拖动左侧手柄或用上移、下移调整顺序；列宽也可直接拖动表头右边框。修改即时生效并自动保存。
      </Typography.Paragraph>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={rows.map((c) => c.key)} strategy={verticalListSortingStrategy}>
          {rows.map((config, index) => {
            const column = columns.get(config.key);
            if (!column) return null;
            return (
              <ColumnRow
                key={config.key}
                config={config}
                column={column}
                index={index}
                count={rows.length}
                onMove={(to) => move(index, to)}
                onChange={(next) => onChange(rows.map((c) => (c.key === next.key ? next : c)))}
              />
            );
          })}
        </SortableContext>
      </DndContext>
    </Drawer>
  );
}
