// The dashboard's charts (recharts), drawn from one SpendReport and themed from antd's tokens so they
// follow light and dark. Money stays fen: the axes show whole yuan (万 / k when large), the tooltips
// the exact amount through formatYuan. No animation: the numbers are there at once (and in pictures).
import { theme } from 'antd';
import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type LegendPayload } from 'recharts';
import type { SpendGroup, SpendReport } from '../../../shared/ipc/views/books';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { formatMs, formatShortDateMs } from '../lib/format-time';
import { axisYuan, balancePoints, shortDay, yuanTicks } from '../lib/spend-view';

const HEIGHT = 260;
const SERIES_ORDER = ['net', 'refunded', 'completed', 'unsuccessful', 'unknownState', 'minutes', 'balanceFen'];
const TOP_GROUPS = 10;
/** Room for Chinese product names on the bar charts' category axis (longer names are cut with …). */
const NAME_AXIS_WIDTH = 150;
const NAME_MAX_CHARS = 12;

function useChartStyle() {
  const { token } = theme.useToken();
  return {
    token,
    axis: { stroke: token.colorBorder, tick: { fill: token.colorTextSecondary, fontSize: 12 } },
    grid: { stroke: token.colorBorderSecondary, strokeDasharray: '3 3' },
    tooltip: {
      contentStyle: { background: token.colorBgElevated, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, color: token.colorText },
      labelStyle: { color: token.colorText },
      itemStyle: { color: token.colorText },
      cursor: { fill: token.colorFillSecondary },
    },
    // In the order the series are drawn (the default sorts by label, which differs per language).
    legend: { wrapperStyle: { color: token.colorTextSecondary, fontSize: 12 }, itemSorter: (item: LegendPayload) => SERIES_ORDER.indexOf(String(item.dataKey)) },
  };
}

function Frame({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div data-testid={testId} style={{ width: '100%', height: HEIGHT }}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

const money = (value: unknown): string => (typeof value === 'number' ? formatFen(value) : '—');
const shortName = (name: string): string => (name.length > NAME_MAX_CHARS ? `${name.slice(0, NAME_MAX_CHARS - 1)}…` : name);

export function SpendPerDayChart({ report }: { report: SpendReport }) {
  const { t, locale } = useI18n();
  const style = useChartStyle();
  const data = report.days.map((d) => ({ day: d.day, net: d.netFen, refunded: d.refundedFen }));
  const ticks = yuanTicks(Math.max(0, ...report.days.map((d) => d.chargedFen)));
  return (
    <Frame testId="chart-days">
      <BarChart data={data} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
        <CartesianGrid vertical={false} {...style.grid} />
        <XAxis dataKey="day" tickFormatter={(day: string) => shortDay(day, locale)} minTickGap={16} {...style.axis} />
        <YAxis tickFormatter={(v: number) => axisYuan(v, locale)} width={72} ticks={ticks} domain={[0, ticks.at(-1) ?? 0]} {...style.axis} />
        <Tooltip formatter={money} {...style.tooltip} />
        <Legend {...style.legend} />
        <Bar dataKey="net" name={t('dashboard.series.net')} stackId="spend" fill={style.token.colorPrimary} isAnimationActive={false} />
        <Bar dataKey="refunded" name={t('dashboard.series.refunded')} stackId="spend" fill={style.token.colorWarning} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

/** The merchant's own words, not ours to translate: marked so for browsers and the zh-CN scan (MerchantText.tsx). */
const UNTRANSLATED = { translate: 'no', 'data-untranslated': 'merchant' };

/** A category axis tick with the merchant's name, cut to fit, the whole name on hover. */
function NameTick({ x, y, payload, fill }: { x?: number | string; y?: number | string; payload?: { value?: unknown }; fill: string }) {
  const name = typeof payload?.value === 'string' ? payload.value : '';
  return (
    <g transform={`translate(${x ?? 0},${y ?? 0})`} {...UNTRANSLATED}>
      <text x={-4} y={0} dy={4} textAnchor="end" fill={fill} fontSize={12}>
        <title>{name}</title>
        {shortName(name)}
      </text>
    </g>
  );
}

/** Horizontal bars of the biggest groups by net spend; names from the merchant (not translated). */
export function SpendGroupChart({ groups, testId, unnamed }: { groups: readonly SpendGroup[]; testId: string; unnamed: (key: number | null) => string }) {
  const { t, locale } = useI18n();
  const style = useChartStyle();
  const shown = groups.slice(0, TOP_GROUPS);
  const data = shown.map((g) => ({ name: g.name ?? unnamed(g.key), net: g.netFen, refunded: g.refundedFen }));
  const ticks = yuanTicks(Math.max(0, ...shown.map((g) => g.chargedFen)));
  return (
    <Frame testId={testId}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
        <CartesianGrid horizontal={false} {...style.grid} />
        <XAxis type="number" tickFormatter={(v: number) => axisYuan(v, locale)} ticks={ticks} domain={[0, ticks.at(-1) ?? 0]} {...style.axis} />
        <YAxis type="category" dataKey="name" width={NAME_AXIS_WIDTH} interval={0} stroke={style.axis.stroke} tick={(props: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) => <NameTick x={props.x} y={props.y} payload={props.payload} fill={style.token.colorTextSecondary} />} />
        <Tooltip formatter={money} {...style.tooltip} />
        <Legend {...style.legend} />
        <Bar dataKey="net" name={t('dashboard.series.net')} stackId="spend" fill={style.token.colorPrimary} isAnimationActive={false} />
        <Bar dataKey="refunded" name={t('dashboard.series.refunded')} stackId="spend" fill={style.token.colorWarning} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function OutcomesChart({ report }: { report: SpendReport }) {
  const { t, locale } = useI18n();
  const style = useChartStyle();
  const data = report.days.map((d) => ({ day: d.day, completed: d.completed, unsuccessful: d.unsuccessful, unknownState: d.unknownState }));
  return (
    <Frame testId="chart-outcomes">
      <BarChart data={data} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
        <CartesianGrid vertical={false} {...style.grid} />
        <XAxis dataKey="day" tickFormatter={(day: string) => shortDay(day, locale)} minTickGap={16} {...style.axis} />
        <YAxis allowDecimals={false} width={40} {...style.axis} />
        <Tooltip {...style.tooltip} />
        <Legend {...style.legend} />
        <Bar dataKey="completed" name={t('dashboard.series.completed')} stackId="o" fill={style.token.colorSuccess} isAnimationActive={false} />
        <Bar dataKey="unsuccessful" name={t('dashboard.series.unsuccessful')} stackId="o" fill={style.token.colorError} isAnimationActive={false} />
        <Bar dataKey="unknownState" name={t('dashboard.series.unknownState')} stackId="o" fill={style.token.colorTextQuaternary} isAnimationActive={false} />
      </BarChart>
    </Frame>
  );
}

export function DeliveryChart({ report }: { report: SpendReport }) {
  const { t, locale } = useI18n();
  const style = useChartStyle();
  const data = report.days.map((d) => ({ day: d.day, minutes: d.medianDeliverySeconds === null ? null : Math.round((d.medianDeliverySeconds / 60) * 10) / 10 }));
  return (
    <Frame testId="chart-delivery">
      <LineChart data={data} margin={{ top: 8, right: 8, left: 8, bottom: 0 }}>
        <CartesianGrid vertical={false} {...style.grid} />
        <XAxis dataKey="day" tickFormatter={(day: string) => shortDay(day, locale)} minTickGap={16} {...style.axis} />
        <YAxis width={48} domain={[0, (max: number) => Math.max(1, Math.ceil(max))]} {...style.axis} />
        <Tooltip formatter={(v: unknown) => (typeof v === 'number' ? t('dashboard.minutes', { value: v }) : '—')} {...style.tooltip} />
        <Legend {...style.legend} />
        <Line dataKey="minutes" name={t('dashboard.series.delivery')} stroke={style.token.colorPrimary} strokeWidth={2} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
      </LineChart>
    </Frame>
  );
}

/** Flat segments where the balance was read, broken between them (never interpolated). */
export function BalanceChart({ report }: { report: SpendReport }) {
  const { t, locale } = useI18n();
  const style = useChartStyle();
  const data = balancePoints(report.balance, report.fromMs, report.toMs);
  const dayOf = (ms: number): string => formatShortDateMs(ms, locale);
  const timeOf = (ms: number): string => formatMs(ms, locale);
  return (
    <Frame testId="chart-balance">
      <LineChart data={data} margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
        <CartesianGrid vertical={false} {...style.grid} />
        <XAxis dataKey="at" type="number" scale="time" domain={[report.fromMs, report.toMs]} tickFormatter={dayOf} minTickGap={24} {...style.axis} />
        <YAxis tickFormatter={(v: number) => axisYuan(v, locale)} width={80} domain={['auto', 'auto']} {...style.axis} />
        <Tooltip formatter={money} labelFormatter={(v: unknown) => (typeof v === 'number' ? timeOf(v) : '')} {...style.tooltip} />
        <Line dataKey="balanceFen" name={t('dashboard.series.balance')} type="stepAfter" stroke={style.token.colorPrimary} strokeWidth={2} dot={{ r: 3, fill: style.token.colorPrimary }} connectNulls={false} isAnimationActive={false} />
      </LineChart>
    </Frame>
  );
}
