import { useRef, useState, type PointerEvent, type ThHTMLAttributes } from 'react';

export const MIN_COLUMN_WIDTH = 40;
export const MAX_COLUMN_WIDTH = 1000;

export type ResizableHeaderCellProps = ThHTMLAttributes<HTMLTableCellElement> & {
  /** The column's current width; a column without one is not resizable. */
  resizeWidth?: number;
  /** Called once when a drag ends (not on every move), or with undefined on a double click (back to the default). */
  onResizeEnd?: (width: number | undefined) => void;
  /** The column's name for the handle's label. */
  resizeLabel?: string;
};

const clamp = (n: number) => Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, Math.round(n)));

/**
 * A table header cell whose right border can be dragged to size the column. While dragging only a guide line moves
 * (the table re-renders once, when the drag ends); a double click on the border gives back the default width.
 */
export function ResizableHeaderCell({
  resizeWidth,
  onResizeEnd,
  resizeLabel,
  children,
  style,
  ...rest
}: ResizableHeaderCellProps) {
  const start = useRef<{ x: number; width: number } | null>(null);
  // While dragging: the guide line's place on screen (fixed, so a cell's overflow does not clip it).
  const [guide, setGuide] = useState<{ left: number; top: number; height: number; delta: number } | null>(null);

  if (resizeWidth === undefined || !onResizeEnd) {
    return (
      <th {...rest} style={style}>
        {children}
      </th>
    );
  }

  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    start.current = { x: event.clientX, width: resizeWidth };
    const cell = event.currentTarget.closest('th')?.getBoundingClientRect();
    const table = event.currentTarget.closest('.ant-table')?.getBoundingClientRect();
    if (cell)
      setGuide({ left: cell.right, top: cell.top, height: (table?.bottom ?? cell.bottom) - cell.top, delta: 0 });
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>) => {
    const from = start.current;
    if (!from) return;
    const delta = clamp(from.width + event.clientX - from.x) - from.width;
    setGuide((g) => (g ? { ...g, delta } : g));
  };
  const onPointerUp = (event: PointerEvent<HTMLSpanElement>) => {
    if (!start.current) return;
    const width = clamp(start.current.width + event.clientX - start.current.x);
    start.current = null;
    setGuide(null);
    if (width !== resizeWidth) onResizeEnd(width);
  };

  return (
    // antd's header cells are positioned already (relative, or sticky for fixed columns): the handle sits inside.
    <th {...rest} style={style}>
      {children}
      <span
        className="patient-col-resizer"
        role="separator"
        aria-orientation="vertical"
        aria-label={resizeLabel ? `调整“${resizeLabel}”列宽` : '调整列宽'}
        title="拖动调整列宽，双击恢复默认"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          start.current = null;
          setGuide(null);
        }}
        onClick={(event) => event.stopPropagation()}
        onDoubleClick={(event) => {
          event.stopPropagation();
          onResizeEnd(undefined);
        }}
      />
      {guide && (
        <span
          className="patient-col-guide"
          style={{ left: guide.left + guide.delta - 1, top: guide.top, height: guide.height }}
        />
      )}
    </th>
  );
}
