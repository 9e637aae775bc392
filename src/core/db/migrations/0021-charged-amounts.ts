// 0021 charged amounts: what the merchant charged for an order when it first told the app (the create
// answer, or the first detail of an order whose answer was lost), kept apart from total_fen, which
// follows every later answer. A merchant that changes an order's amount afterwards is then a
// difference in reconciliation (contract §12.2), never silently adopted into the books (§12.4).
// Set by triggers, so every writer of orders and foreign_orders keeps it without knowing of it; an
// order stored before this migration takes its amount as then stored. It can never change once set.
import type { Migration } from '../migration';

export const chargedAmountsMigration: Migration = {
  id: 21,
  name: 'charged-amounts',
  sql: `
ALTER TABLE orders ADD COLUMN charged_fen INTEGER CHECK (charged_fen IS NULL OR charged_fen >= 0);
UPDATE orders SET charged_fen = total_fen;
CREATE TRIGGER orders_charged_fen_set AFTER INSERT ON orders WHEN NEW.charged_fen IS NULL
BEGIN
  UPDATE orders SET charged_fen = NEW.total_fen WHERE client_order_ref = NEW.client_order_ref;
END;
CREATE TRIGGER orders_charged_fen_kept BEFORE UPDATE OF charged_fen ON orders
WHEN OLD.charged_fen IS NOT NULL AND NEW.charged_fen IS NOT OLD.charged_fen
BEGIN
  SELECT RAISE(ABORT, 'the charged amount of an order never changes');
END;

ALTER TABLE foreign_orders ADD COLUMN charged_fen INTEGER CHECK (charged_fen IS NULL OR charged_fen >= 0);
UPDATE foreign_orders SET charged_fen = total_fen;
CREATE TRIGGER foreign_orders_charged_fen_set AFTER INSERT ON foreign_orders WHEN NEW.charged_fen IS NULL
BEGIN
  UPDATE foreign_orders SET charged_fen = NEW.total_fen
   WHERE base_url = NEW.base_url AND user_id = NEW.user_id AND client_order_ref = NEW.client_order_ref;
END;
CREATE TRIGGER foreign_orders_charged_fen_kept BEFORE UPDATE OF charged_fen ON foreign_orders
WHEN OLD.charged_fen IS NOT NULL AND NEW.charged_fen IS NOT OLD.charged_fen
BEGIN
  SELECT RAISE(ABORT, 'the charged amount of an order never changes');
END;
`,
};
