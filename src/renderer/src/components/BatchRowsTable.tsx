// A virtualised table for a batch's rows (1,000 rows and more stay smooth: only the rows in view are
// rendered). Plain grid rows rather than antd's Table, whose rows are all mounted.
import { useVirtualizer } from '@tanstack/react-virtual';
import { Typography } from 'antd';
import { useRef, type ReactNode } from 'react';

export interface BatchColumn<T> {
  readonly key: string;
  readonly title: ReactNode;
  /** CSS grid track, e.g. "64px" or "minmax(120px, 1fr)". */
  readonly width: string;
  render(row: T): ReactNode;
}

const ROW_HEIGHT = 36;

export function BatchRowsTable<T>({ rows, columns, rowKey, testId, height = 320 }: { rows: readonly T[]; columns: readonly BatchColumn<T>[]; rowKey: (row: T) => string; testId: string; height?: number }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const template = columns.map((column) => column.width).join(' ');
  return (
    <div className="batch-table" data-testid={testId} data-rows={rows.length}>
      <div className="batch-table-head" style={{ gridTemplateColumns: template }}>
        {columns.map((column) => (
          <Typography.Text strong key={column.key} ellipsis>
            {column.title}
          </Typography.Text>
        ))}
      </div>
      <div ref={scrollRef} className="batch-table-body" style={{ height: Math.min(height, rows.length * ROW_HEIGHT + 2) }}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <div
                key={rowKey(row)}
                className="batch-table-row"
                data-testid={`${testId}-row`}
                style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                {columns.map((column) => (
                  <div key={column.key} className="batch-table-cell">
                    {column.render(row)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
