// The orders quitting the desktop app asks about (contract §17.2): not yet sent (queued, needs_template)
// and sent without a known outcome (sending, unknown, withdrawing); parked, refused, accepted and
// finished intents are not in flight.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inFlightOrders } from '../../../src/core/orders/in-flight-orders';
import { insertIntent, type IntentStatus } from '../../../src/core/orders/order-intent-store';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const NOW = 1_790_000_000;
let temp: TempDatabase;

function intentIn(status: IntentStatus, n: number): void {
  const ref = `o_in_flight_${status}_${n}`;
  insertIntent(
    temp.db,
    { clientOrderRef: ref, batchId: null, productRef: 1001, variantRef: 0, productType: 'card', units: 1, purchaseSchemaRevision: null, purchaseEntries: [], optionLabels: [], orderCallbackUrl: null, imageUrl: null, confirmedUnitPriceFen: 9250 },
    NOW,
  );
  temp.db.prepare('UPDATE order_intents SET status = ? WHERE client_order_ref = ?').run(status, ref);
}

beforeEach(() => {
  temp = createMigratedDatabase();
  // Each status's other columns (a guard's price, a parked origin) do not matter to the count.
  temp.db.pragma('ignore_check_constraints = ON');
});

afterEach(() => temp.dispose());

describe('orders in flight', () => {
  it('counts intents not yet sent and sent without an answer, and nothing else', () => {
    expect(inFlightOrders(temp.db)).toEqual({ notSent: 0, awaitingAnswer: 0 });
    const notInFlight: IntentStatus[] = ['accepted', 'rejected', 'needs_confirmation', 'withdrawn', 'price_changed', 'unavailable', 'needs_key', 'account_suspended', 'access_denied', 'merchant_failing'];
    notInFlight.forEach((status, n) => intentIn(status, n));
    expect(inFlightOrders(temp.db)).toEqual({ notSent: 0, awaitingAnswer: 0 });
    intentIn('queued', 1);
    intentIn('queued', 2);
    intentIn('needs_template', 1);
    intentIn('sending', 1);
    intentIn('unknown', 1);
    intentIn('withdrawing', 1);
    expect(inFlightOrders(temp.db)).toEqual({ notSent: 3, awaitingAnswer: 3 });
  });
});
