// The sync bar's words from the sync status: what the "last synced" line says, which step the running
// sync is at, its counts and time left, and why the last run did not finish — all from the tables,
// never the merchant's or core's English (issue 14) — and whether that failure is still current or
// has ended with the connection problem it described (issue 24).
import type { SyncFailureView, SyncProgressView, SyncStatus } from '../../../shared/ipc/views/catalog';
import type { ConnectionStateView } from '../../../shared/ipc/views/connection';
import { SYNC_WORK_PHASES } from '../../../shared/ipc/views/catalog';
import type { MessageKey } from '../i18n/messages-en';
import type { Params } from '../i18n/translate';
import type { Locale } from '../i18n/locale';
import { problemOfMerchantCode, type Problem } from './explain-error';
import { formatSeconds } from './format-time';
import { timeLeft } from './wait-words';

export interface Words {
  readonly locale: Locale;
  t: (key: MessageKey, params?: Params) => string;
  td: (key: string, fallback: MessageKey, params?: Params) => string;
}

/** "Last synced …" (kept through failures), "First sync in progress" or "Never synced". */
export function lastSyncedLine(status: Pick<SyncStatus, 'lastSyncedAt' | 'running'>, { t, locale }: Words): string {
  if (status.lastSyncedAt !== null) return t('catalog.lastSynced', { time: formatSeconds(status.lastSyncedAt, locale) });
  return status.running ? t('sync.firstInProgress') : t('catalog.neverSynced');
}

/** "Step 2 of 3: product details", or null when the event names no work phase. */
export function stepLine(progress: SyncProgressView, { t, td }: Words): string | null {
  if (progress.phaseIndex === null || !(SYNC_WORK_PHASES as readonly string[]).includes(progress.phase)) return null;
  return t('sync.stepOf', { index: progress.phaseIndex, count: progress.phaseCount, phase: phaseName(progress, { t, td }) });
}

/** The phase's name; the templates phase says for which variants (issue 15: only watched/ordered ones by default). */
function phaseName(progress: SyncProgressView, { t, td }: Pick<Words, 't' | 'td'>): string {
  if (progress.phase !== 'templates') return td(`sync.phase.${progress.phase}`, 'sync.phase.details');
  if (progress.templateScope === 'all') return t('sync.phase.templatesAll');
  return progress.total === null ? t('sync.phase.templates') : t('sync.phase.templatesWanted', { count: progress.total });
}

/** "27 of 60 products", or the requests answered while the phase's size is not known. */
export function countLine(progress: SyncProgressView, { td, t, locale }: Words): string {
  if (progress.total === null) return t('sync.countUnknown', { done: progress.done });
  return td(`sync.count.${progress.phase}`, 'sync.count.list', { done: progress.done.toLocaleString(locale), total: progress.total });
}

/** "about 3 minutes left", or null while the time left is not known. */
export function etaLine(progress: SyncProgressView, { t }: Words): string | null {
  if (progress.etaMs === null || progress.etaMs <= 0) return null;
  const seconds = Math.ceil(progress.etaMs / 1000);
  return seconds < 90 ? t('sync.etaSeconds', { seconds }) : t('sync.etaMinutes', { minutes: Math.round(seconds / 60) });
}

/** Bar percent, or undefined for an indeterminate bar (some phase's work unknown). */
export function barPercent(progress: SyncProgressView): number | undefined {
  return progress.fraction === null ? undefined : Math.min(100, Math.floor(progress.fraction * 100));
}

export interface FailureWords {
  readonly reason: string;
  /** Merchant code and request ID, for support; empty when there are none. */
  readonly detail: string;
}

/**
 * Why the last run did not finish, in the buyer's language, with the code and requestId kept apart.
 * `nowMs` (this computer's clock) words a merchant's wait as time left, or as over once it has passed.
 */
export function failureWords(failure: SyncFailureView, { t, td }: Words, nowMs: number = Date.now()): FailureWords {
  const detail: string[] = [];
  if (failure.merchantCode !== null) detail.push(t('problem.merchantCode', { code: failure.merchantCode }));
  if (failure.requestId !== null) detail.push(t('common.requestId', { id: failure.requestId }));
  return { reason: reasonOf(failure, { t, td }, nowMs), detail: detail.join(' · ') };
}

/** Merchant codes that describe reaching the merchant (its trouble, its quota, our access), not one request. */
const CONNECTION_PROBLEMS: ReadonlySet<Problem> = new Set(['merchantTrouble', 'rateLimited', 'keyInvalid', 'suspended', 'ipDenied']);

/**
 * Whether the failure still describes the connection as it is. A failure to reach the merchant (no
 * route, a certificate, a timeout, its 5xx or quota, a refusal of our access, a broken answer) has
 * ended once the merchant answered successfully after it: in a later second (the seconds of a
 * success just before the failure may equal its own), or in its second when it answers now (online,
 * or merely slow). The bar then says when the sync stopped, in neutral words, until the next sync
 * succeeds; whatever is wrong now is the banner's to say. A failure of the sync itself (the list
 * moved while paging, anything else) is current until then.
 */
export function isSyncFailureCurrent(failure: SyncFailureView, connection: Pick<ConnectionStateView, 'state' | 'slowMs' | 'lastSuccessAt'> | null): boolean {
  const aboutReaching =
    failure.kind === 'transport' ||
    failure.kind === 'malformed' ||
    (failure.kind === 'merchant' && failure.merchantCode !== null && CONNECTION_PROBLEMS.has(problemOfMerchantCode(failure.merchantCode)));
  if (!aboutReaching || connection === null) return true;
  const answering = connection.state === 'online' || (connection.state === 'degraded' && connection.slowMs !== null);
  const answeredSince = connection.lastSuccessAt !== null && (connection.lastSuccessAt > failure.at || (answering && connection.lastSuccessAt >= failure.at));
  return !answeredSince;
}

function reasonOf(failure: SyncFailureView, { t, td }: Pick<Words, 't' | 'td'>, nowMs: number): string {
  switch (failure.kind) {
    case 'merchant': {
      const problem = failure.merchantCode === null ? 'unknown' : problemOfMerchantCode(failure.merchantCode);
      // The general words promise retries a sync does not make; these two get the sync's own.
      if (problem === 'merchantTrouble' || problem === 'rateLimited') return td(`sync.problem.${problem}`, 'problem.unknown.body');
      return td(`problem.${problem}.body`, 'problem.unknown.body');
    }
    case 'transport':
      return td(`sync.transport.${failure.transportReason ?? 'unknown'}`, 'sync.transport.unknown');
    case 'paging':
      return t('sync.reason.paging');
    case 'notBefore': {
      const left = failure.notBeforeAt === null ? null : timeLeft(failure.notBeforeAt * 1000, nowMs, t);
      return left === null ? t('sync.reason.notBeforeOver') : t('sync.reason.notBefore', { wait: left });
    }
    case 'malformed':
      return t('problem.malformed.body');
    case 'other':
      return t('sync.reason.other');
  }
}
