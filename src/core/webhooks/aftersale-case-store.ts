// Stores an after-sales case as the authenticated GET /aftersales/{ref} returned it (contract §9.3):
// the case row never moves back to an older updatedAt, and each message is appended once, keyed by
// messageRef (interface v1 §6.4.1), whatever mix of webhooks and refreshes brings it. The case chat reads it.
import type { Database } from 'better-sqlite3';
import type { AftersaleCase } from '../../shared/merchant/aftersale';

export interface CaseApplyResult {
  /** Messages appended by this call. */
  readonly messagesAdded: number;
  readonly caseUpdated: boolean;
}

export function applyAftersaleCase(db: Database, detail: AftersaleCase, now: number): CaseApplyResult {
  const upsertCase = db.prepare(
    `INSERT INTO aftersale_cases (platform_case_ref, client_order_ref, platform_order_ref, category, description, images_json, state,
       allowed_actions_json, created_at, updated_at, fetched_at)
     VALUES (@ref, @orderRef, @platformOrderRef, @category, @description, @images, @state, @actions, @createdAt, @updatedAt, @now)
     ON CONFLICT (platform_case_ref) DO UPDATE SET state = excluded.state, allowed_actions_json = excluded.allowed_actions_json,
       images_json = excluded.images_json, description = excluded.description, updated_at = excluded.updated_at, fetched_at = excluded.fetched_at
     WHERE excluded.updated_at >= aftersale_cases.updated_at`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO aftersale_messages (message_ref, platform_case_ref, client_message_ref, sender, text, images_json, created_at, position, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (message_ref) DO NOTHING`,
  );
  const run = db.transaction((): CaseApplyResult => {
    const caseUpdated =
      upsertCase.run({
        ref: detail.platformCaseRef,
        orderRef: detail.clientOrderRef,
        platformOrderRef: detail.platformOrderRef,
        category: detail.category,
        description: detail.description,
        images: JSON.stringify(detail.images),
        state: detail.state,
        actions: JSON.stringify(detail.allowedActions),
        createdAt: detail.createdAt,
        updatedAt: detail.updatedAt,
        now,
      }).changes === 1;
    let messagesAdded = 0;
    detail.messages.forEach((message, position) => {
      messagesAdded += insertMessage.run(
        message.messageRef,
        detail.platformCaseRef,
        message.clientMessageRef,
        message.sender,
        message.text,
        JSON.stringify(message.images),
        message.createdAt,
        position,
        now,
      ).changes;
    });
    return { messagesAdded, caseUpdated };
  });
  return run.immediate();
}
