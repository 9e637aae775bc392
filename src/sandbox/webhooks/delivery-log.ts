// The record of every webhook send, in the order the sends started. A send reserves its place when
// it starts and fills it in when its result is known, so a slow first attempt still lists before a
// quick later one. Bounded, because a long benchmark sends millions of webhooks.
import type { SendResult } from './webhook-send';

export interface DeliveryRecord {
  eventId: string;
  eventType: string;
  url: string;
  attempt: 1 | 2 | 3;
  /** Sandbox Unix seconds when the send started. */
  sentAt: number;
  /** Sandbox milliseconds when the send started. */
  sentAtMs: number;
  status: number | null;
  ok: boolean;
  error: string | null;
}

export type StartedSend = Omit<DeliveryRecord, keyof SendResult>;

interface Slot {
  record: DeliveryRecord | undefined;
}

export interface DeliveryLog {
  /** Reserves the place of a send that is starting; call the returned function with its result. */
  start(send: StartedSend): (result: SendResult) => void;
  /** Finished sends, oldest first. */
  list(): DeliveryRecord[];
}

export function createDeliveryLog(maxRecords: number): DeliveryLog {
  let slots: Slot[] = [];
  // Trimming in batches keeps dropping the oldest records amortised O(1) per send.
  const batch = Math.max(1, Math.floor(maxRecords / 10));
  return {
    start(send) {
      const slot: Slot = { record: undefined };
      slots.push(slot);
      if (slots.length > maxRecords) slots = slots.slice(slots.length - maxRecords + batch);
      return (result) => {
        slot.record = { ...send, ...result };
      };
    },
    list() {
      const out: DeliveryRecord[] = [];
      for (const slot of slots) if (slot.record) out.push(slot.record);
      return out;
    },
  };
}
