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
  const [delta, setDelta] = useState<number | null>(null);

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
    setDelta(0);
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>) => {
    if (!start.current) return;
    setDelta(clamp(start.current.width + event.clientX - start.current.x) - start.current.width);
  };
  const onPointerUp = (event: PointerEvent<HTMLSpanElement>) => {
    if (!start.current) return;
    const width = clamp(start.current.width + event.clientX - start.current.x);
    start.current = null;
    setDelta(null);
    if (width !== resizeWidth) onResizeEnd(width);
  };

  return (
    <th {...rest} style={{ ...style, position: 'relative' }}>
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
          setDelta(null);
        }}
        onClick={(event) => event.stopPropagation()}
        onDoubleClick={(event) => {
          event.stopPropagation();
          onResizeEnd(undefined);
        }}
      />
      {delta !== null && <span className="patient-col-guide" style={{ right: -delta }} />}
    </th>
  );
}
