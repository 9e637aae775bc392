// Group commit for the webhook receiver: bodies completed in the same turn of the event loop are
// stored in one transaction, so a burst costs one fsync per turn instead of one per event. Each caller
// is answered after the commit (OK means "on disk"); one bad item never costs the others their answer.
import type { StoreItem, WebhookInbox } from './webhook-inbox';

export type StoreResult = 'stored' | 'duplicate';

/** Returns `enqueue`: stores the item with the others of this turn, then calls `done` with the outcome. */
export function createGroupCommit(inbox: WebhookInbox): (item: StoreItem, done: (result: StoreResult | Error) => void) => void {
  let queue: { item: StoreItem; done: (result: StoreResult | Error) => void }[] = [];
  const flush = (): void => {
    const batch = queue;
    queue = [];
    try {
      const results = inbox.storeMany(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.done(results[index] ?? new Error('no result')));
    } catch {
      // One bad item must not cost the others their answer: store each alone.
      for (const entry of batch) {
        try {
          entry.done(inbox.store(entry.item.input, entry.item.cards));
        } catch (error) {
          entry.done(error instanceof Error ? error : new Error('store failed'));
        }
      }
    }
  };
  return (item: StoreItem, done: (result: StoreResult | Error) => void): void => {
    queue.push({ item, done });
    if (queue.length === 1) setImmediate(flush);
  };
}
