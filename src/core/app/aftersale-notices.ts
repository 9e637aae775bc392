// What the UI hears about after-sales, whoever changed the tables (webhook inbox, polls, the outbox,
// another handler): 'aftersales.changed' for every case whose fingerprint moved, and one
// 'aftersaleReply' notification per new message from the merchant's side (case-watch.ts keeps
// "once" durable, so neither a webhook and a poll bringing the same reply, nor a restart, repeats it).
import type { Database } from 'better-sqlite3';
import { notificationText } from '../../shared/notification-text';
import { createCaseWatch, type CaseWatch } from '../aftersales/case-watch';
import type { Logger } from '../logging/logger';
import type { AppEvents } from './app-events';

const PREVIEW_CHARS = 120;

function previewOf(text: string): string | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length === 0) return null;
  return chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join('')}…` : flat;
}

export function createAftersaleNotices(options: { db: Database; logger: Logger; events: AppEvents; intervalMs?: number }): CaseWatch {
  const { db, events } = options;
  const orderNaming = db.prepare<[string], { name: string | null; platform_order_ref: string | null }>(
    `SELECT coalesce(o.product_name, p.name) AS name, o.platform_order_ref FROM order_intents i LEFT JOIN orders o ON o.client_order_ref = i.client_order_ref
     LEFT JOIN products p ON p.product_ref = i.product_ref WHERE i.client_order_ref = ?`,
  );
  return createCaseWatch({
    db,
    logger: options.logger,
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    onCases: (refs) => events.emit('aftersales.changed', { platformCaseRefs: [...refs] }),
    onMerchantMessages: (messages) => {
      for (const message of messages) {
        const naming = orderNaming.get(message.clientOrderRef);
        const facts = {
          kind: 'aftersaleReply' as const,
          productName: naming?.name ?? null,
          platformOrderRef: naming?.platform_order_ref ?? null,
          preview: previewOf(message.text),
          images: message.images,
          clientOrderRef: message.clientOrderRef,
          platformCaseRef: message.platformCaseRef,
        };
        // The English wording for logs and the CLI; the UI and the desktop word the facts themselves.
        events.emit('app.notification', { ...facts, ...notificationText(facts, 'en') });
      }
    },
  });
}
