// The dashboard's pure parts: the range the buyer picked as days, the low-balance input in yuan, and
// the report's numbers shaped for the charts (money stays fen; the axes and tooltips format it).
import type { BalanceRun } from '../../../shared/ipc/views/books';
import { MAX_LOW_BALANCE_FEN } from '../../../shared/ipc/views/settings';
import { formatYuan } from '../../../shared/money';
import { yuanInputToFen } from './money';
import { addDays, dayKeyAt, formatDayKeyShort, runtimeTimeZone, type TimeLanguage } from '../../../shared/date-time';

export type RangePreset = '30' | '90' | 'custom';

/** The last `days` days of the zone up to today (calendar days: a DST day is still one day). */
export function lastDays(days: number, nowMs: number = Date.now(), timeZone: string = pageTimeZone()): { from: string; to: string } {
  const today = dayKeyAt(timeZone, nowMs);
  return { from: addDays(today, -(days - 1)), to: today };
}

/** The buyer's time zone, as the page knows it (the report's days are this zone's). */
export function pageTimeZone(): string {
  return runtimeTimeZone();
}

/** A yuan amount for an axis: no cents, thousands grouped; from ¥100,000 on, 万 in Chinese and k in English. */
/** Below this an axis writes the whole amount (a balance of ¥9,990 next to ¥10,000, not ¥1万). */
const LARGE_YUAN = 100_000;

export function axisYuan(fen: number, locale: string): string {
  const yuan = fen / 100;
  const abs = Math.abs(yuan);
  if (locale === 'zh-CN' && abs >= LARGE_YUAN) return `¥${(yuan / 10_000).toLocaleString('zh-CN', { maximumFractionDigits: 1 })}万`;
  if (locale !== 'zh-CN' && abs >= LARGE_YUAN) return `¥${(yuan / 1_000).toLocaleString('en', { maximumFractionDigits: 1 })}k`;
  if (abs < 10 && fen % 100 !== 0) return formatYuan(fen, { symbol: true });
  return `¥${Math.round(yuan).toLocaleString(locale)}`;
}

/**
 * Money axis ticks (fen) at round yuan steps (1, 2 or 5 × 10ⁿ yuan), from 0 to at least `maxFen`, about
 * `count` of them: an axis reads ¥0 ¥10 ¥20 ¥30 ¥40, not ¥9.50 ¥19 ¥29.
 */
export function yuanTicks(maxFen: number, count = 5): number[] {
  const top = Math.max(maxFen, 100);
  const raw = top / 100 / (count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.round(([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power) * 100);
  const ticks: number[] = [];
  for (let value = 0; ; value += step) {
    ticks.push(value);
    if (value >= top) return ticks;
  }
}

/** "11-26" (Chinese) or "Nov 26" (English) from "2026-11-26": short enough for 90 ticks' worth of labels. */
export function shortDay(day: string, locale: TimeLanguage): string {
  return formatDayKeyShort(day, locale);
}

export type LowBalanceProblem = 'empty' | 'notYuan' | 'negative' | 'tooLarge';

/** The Settings field: yuan text → fen, or why not. 0 turns the notice off. */
export function parseLowBalanceYuan(text: string): { fen: number } | { problem: LowBalanceProblem } {
  const trimmed = text.trim().replace(/^¥/, '').replace(/,/g, '');
  if (trimmed === '') return { problem: 'empty' };
  const fen = yuanInputToFen(trimmed);
  if (fen === null) return { problem: 'notYuan' };
  if (fen < 0) return { problem: 'negative' };
  if (fen > MAX_LOW_BALANCE_FEN) return { problem: 'tooLarge' };
  return { fen };
}

export interface BalancePoint {
  readonly at: number;
  /** null: not observed here (the line breaks). */
  readonly balanceFen: number | null;
}

/**
 * The balance runs as line points: each run a flat segment from its first to its last answer, and a
 * break (a null point) between runs, where the balance changed at a moment nobody saw. A run that
 * started before the range is drawn from the range's start.
 */
export function balancePoints(runs: readonly BalanceRun[], fromMs: number, toMs: number): BalancePoint[] {
  const points: BalancePoint[] = [];
  runs.forEach((run, index) => {
    const start = Math.max(run.fromMs, fromMs);
    const end = Math.min(Math.max(run.toMs, start), toMs);
    if (index > 0) points.push({ at: start - 1, balanceFen: null });
    points.push({ at: start, balanceFen: run.balanceFen });
    if (end > start) points.push({ at: end, balanceFen: run.balanceFen });
  });
  return points;
}
