// A small SVG step chart of a variant's recorded prices (main records one point per change).
import { Empty, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { stepChart } from '../lib/chart-geometry';
import { formatSeconds, formatShortDate } from '../lib/format-time';
import { formatFen } from '../lib/money';
import type { PricePoint } from '../../../shared/ipc/views/catalog';

const WIDTH = 520;
const HEIGHT = 160;
const PADDING = 16;

export function PriceHistoryChart({ points }: { points: readonly PricePoint[] }) {
  const { t, locale } = useI18n();
  const { token } = theme.useToken();
  const geometry = useMemo(
    () => stepChart(points.map((point) => ({ at: point.recordedAt, value: point.priceFen })), WIDTH, HEIGHT, PADDING, Math.floor(Date.now() / 1000)),
    [points],
  );
  if (geometry === null) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('product.priceHistoryEmpty')} />;
  const sorted = [...points].sort((a, b) => a.recordedAt - b.recordedAt);
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  return (
    <div data-testid="price-history-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={t('product.priceHistory')} style={{ display: 'block' }}>
        <line x1={PADDING} y1={HEIGHT - PADDING} x2={WIDTH - PADDING} y2={HEIGHT - PADDING} stroke={token.colorBorder} />
        <path d={geometry.path} fill="none" stroke={token.colorPrimary} strokeWidth={2} />
        {geometry.points.map((point, index) => {
          const sample = sorted[index];
          return (
            <circle key={index} cx={point.x} cy={point.y} r={3} fill={token.colorPrimary}>
              {sample !== undefined ? <title>{t('join.labelValue', { label: formatSeconds(sample.recordedAt, locale), value: formatFen(sample.priceFen) })}</title> : null}
            </circle>
          );
        })}
      </svg>
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {first !== undefined ? formatShortDate(first.recordedAt, locale) : ''}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {`${formatFen(geometry.minValue)} – ${formatFen(geometry.maxValue)}`}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {last !== undefined ? formatShortDate(last.recordedAt, locale) : ''}
        </Typography.Text>
      </div>
    </div>
  );
}
