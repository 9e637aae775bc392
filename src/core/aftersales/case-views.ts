// The after-sales screens' reads: the merchant's cases as last stored (0006), joined with what only
// this app knows (0009): the outbox's messages not yet in the merchant's list, reads and unread
// counts, and the order's product name. A buyer message the merchant has accepted is shown once: its
// local row yields to the merchant's copy with the same clientMessageRef as soon as that is stored.
// Works without a connection; nothing here writes.
import type { Database } from 'better-sqlite3';
import type { CaseDelivery, CaseDetail, CaseListQuery, CaseMessageView, CaseRow, UnreadSummary } from '../../shared/ipc/views/aftersales';
import { isCaseDone } from './case-poll-policy';
import type { OutboxStatus } from './outbox-store';

interface CaseJoinRow {
  platform_case_ref: string;
  client_order_ref: string;
  platform_order_ref: string;
  product_name: string | null;
  category: string;
  description: string;
  images_json: string;
  state: string;
  allowed_actions_json: string;
  created_at: number;
  updated_at: number;
  fetched_at: number;
  last_message_at: number | null;
  last_message_text: string | null;
  last_message_images: number | null;
  unread: number;
  unsent: number;
  pending_at: number | null;
  pending_text: string | null;
}

interface StoredMessageRow {
  message_ref: string;
  client_message_ref: string | null;
  sender: string;
  text: string;
  images_json: string;
  created_at: number;
}

interface OutboxRow {
  client_message_ref: string;
  text: string;
  images_json: string;
  status: OutboxStatus;
  last_error_code: string | null;
  last_error_message: string | null;
  next_attempt_at: number | null;
  message_ref: string | null;
  sent_created_at: number | null;
  created_at: number;
}

/** Outbox rows the merchant's list does not show yet (by clientMessageRef), oldest first. */
const UNRECONCILED = `
  FROM aftersale_outbox o WHERE o.platform_case_ref = c.platform_case_ref
    AND NOT EXISTS (SELECT 1 FROM aftersale_messages m WHERE m.platform_case_ref = o.platform_case_ref AND m.client_message_ref = o.client_message_ref)`;

const SELECT_CASES = `
  SELECT c.platform_case_ref, c.client_order_ref, c.platform_order_ref, c.category, c.description, c.images_json, c.state,
         c.allowed_actions_json, c.created_at, c.updated_at, c.fetched_at,
         coalesce(o.product_name, p.name) AS product_name,
         lm.created_at AS last_message_at, lm.text AS last_message_text, json_array_length(lm.images_json) AS last_message_images,
         (SELECT count(*) FROM aftersale_messages m WHERE m.platform_case_ref = c.platform_case_ref AND m.sender <> 'buyer'
            AND m.position > coalesce(t.read_position, -1)) AS unread,
         (SELECT count(*) ${UNRECONCILED} AND o.status <> 'sent') AS unsent,
         (SELECT max(o.created_at) ${UNRECONCILED}) AS pending_at,
         (SELECT o.text ${UNRECONCILED} ORDER BY o.rowid DESC LIMIT 1) AS pending_text
  FROM aftersale_cases c
  LEFT JOIN aftersale_tracking t ON t.platform_case_ref = c.platform_case_ref
  LEFT JOIN orders o ON o.client_order_ref = c.client_order_ref
  LEFT JOIN order_intents i ON i.client_order_ref = c.client_order_ref
  LEFT JOIN products p ON p.product_ref = i.product_ref
  LEFT JOIN aftersale_messages lm ON lm.message_ref = (
    SELECT m.message_ref FROM aftersale_messages m WHERE m.platform_case_ref = c.platform_case_ref ORDER BY m.position DESC LIMIT 1)`;

const PREVIEW_CHARS = 80;

function preview(text: string | null, images: number | null): string | null {
  if (text === null) return null;
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed === '') return images !== null && images > 0 ? `[${images} image${images === 1 ? '' : 's'}]` : '';
  const chars = [...trimmed];
  return chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join('')}…` : trimmed;
}

function toRow(row: CaseJoinRow): CaseRow {
  // Our own message waiting to go is the latest thing in the chat for the buyer.
  const pendingIsLatest = row.pending_at !== null && (row.last_message_at === null || row.pending_at >= row.last_message_at);
  return {
    platformCaseRef: row.platform_case_ref,
    clientOrderRef: row.client_order_ref,
    platformOrderRef: row.platform_order_ref,
    productName: row.product_name,
    category: row.category,
    description: row.description,
    state: row.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastMessageAt: pendingIsLatest ? row.pending_at : row.last_message_at,
    lastMessagePreview: pendingIsLatest ? preview(row.pending_text, 0) : preview(row.last_message_text, row.last_message_images),
    unread: row.unread,
    unsent: row.unsent,
  };
}

const DELIVERY: Record<OutboxStatus, CaseDelivery> = { queued: 'pending', sending: 'pending', retrying: 'retrying', sent: 'sent', failed: 'failed' };

/** The stored cases as the renderer sees them. */
export interface CaseViews {
  /** Every stored case, latest activity first, filtered: 'active' = not resolved or closed (unknown states included). */
  list(query: CaseListQuery): CaseRow[];
  /** One stored case with its messages and their delivery state; null when unknown. */
  detail(ref: string): CaseDetail | null;
  /** Merchant messages the buyer has not read: in all, and per order and case. */
  unread(): UnreadSummary;
}

export function createCaseViews(db: Database): CaseViews {
  const oneCase = db.prepare<[string], CaseJoinRow>(`${SELECT_CASES} WHERE c.platform_case_ref = ?`);
  const allCases = db.prepare<[], CaseJoinRow>(`${SELECT_CASES} ORDER BY max(c.updated_at, coalesce(lm.created_at, 0)) DESC, c.created_at DESC, c.platform_case_ref`);
  const storedMessages = db.prepare<[string], StoredMessageRow>(
    'SELECT message_ref, client_message_ref, sender, text, images_json, created_at FROM aftersale_messages WHERE platform_case_ref = ? ORDER BY position, created_at, message_ref',
  );
  const outboxMessages = db.prepare<[string], OutboxRow>(
    `SELECT o.client_message_ref, o.text, o.images_json, o.status, o.last_error_code, o.last_error_message, o.next_attempt_at, o.message_ref,
            o.sent_created_at, o.created_at
     FROM aftersale_outbox o WHERE o.platform_case_ref = ?
       AND NOT EXISTS (SELECT 1 FROM aftersale_messages m WHERE m.platform_case_ref = o.platform_case_ref AND m.client_message_ref = o.client_message_ref)
     ORDER BY o.rowid`,
  );
  const unreadByCase = db.prepare<[], { client_order_ref: string; platform_case_ref: string; unread: number }>(
    `SELECT c.client_order_ref, c.platform_case_ref,
       (SELECT count(*) FROM aftersale_messages m WHERE m.platform_case_ref = c.platform_case_ref AND m.sender <> 'buyer'
          AND m.position > coalesce(t.read_position, -1)) AS unread
     FROM aftersale_cases c LEFT JOIN aftersale_tracking t ON t.platform_case_ref = c.platform_case_ref
     ORDER BY c.client_order_ref, c.created_at DESC`,
  );

  const messagesOf = (ref: string): CaseMessageView[] => {
    const stored: CaseMessageView[] = storedMessages.all(ref).map((m) => ({
      key: m.message_ref,
      messageRef: m.message_ref,
      clientMessageRef: m.client_message_ref,
      sender: m.sender,
      text: m.text,
      images: JSON.parse(m.images_json) as string[],
      createdAt: m.created_at,
      delivery: 'sent',
      lastError: null,
      lastErrorCode: null,
      nextAttemptAt: null,
    }));
    const local: CaseMessageView[] = outboxMessages.all(ref).map((o) => ({
      key: o.client_message_ref,
      messageRef: o.message_ref,
      clientMessageRef: o.client_message_ref,
      sender: 'buyer',
      text: o.text,
      images: JSON.parse(o.images_json) as string[],
      createdAt: o.sent_created_at ?? o.created_at,
      delivery: DELIVERY[o.status],
      lastError: o.status === 'retrying' || o.status === 'failed' ? o.last_error_message : null,
      lastErrorCode: o.status === 'retrying' || o.status === 'failed' ? o.last_error_code : null,
      nextAttemptAt: o.status === 'retrying' ? o.next_attempt_at : null,
    }));
    return [...stored, ...local];
  };

  const matches = (row: CaseRow, query: CaseListQuery): boolean => {
    if (query.clientOrderRef !== undefined && row.clientOrderRef !== query.clientOrderRef) return false;
    if (query.unreadOnly === true && row.unread === 0) return false;
    if (query.state === 'active') return !isCaseDone(row.state);
    if (query.state === 'done') return isCaseDone(row.state);
    if (query.state !== undefined && query.state !== '') return row.state === query.state;
    return true;
  };

  return {
    /** Every stored case, latest activity first, filtered: 'active' = not resolved or closed (unknown states included). */
    list(query: CaseListQuery): CaseRow[] {
      return allCases.all().map(toRow).filter((row) => matches(row, query));
    },
    detail(ref: string): CaseDetail | null {
      const row = oneCase.get(ref);
      if (row === undefined) return null;
      return {
        ...toRow(row),
        platformOrderRef: row.platform_order_ref,
        images: JSON.parse(row.images_json) as string[],
        allowedActions: JSON.parse(row.allowed_actions_json) as string[],
        messages: messagesOf(ref),
        fetchedAt: row.fetched_at,
      };
    },
    unread(): UnreadSummary {
      const byOrder = unreadByCase.all().map((r) => ({ clientOrderRef: r.client_order_ref, platformCaseRef: r.platform_case_ref, unread: r.unread }));
      return { total: byOrder.reduce((sum, r) => sum + r.unread, 0), byOrder };
    },
  };
}

