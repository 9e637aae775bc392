// A core as a host builds it (SQLite on disk, a memory secret store, a redacting logger into memory)
// with cards delivered through the same path the order tracker uses (applyOrderDetail: sealed in
// the vault, the order row stored), so the export reads exactly what a buyer's vault holds. The
// delivery uses its own logger: the core's logger never learns the card codes, so a test can prove
// that nothing the export does puts one in a log line (redaction would otherwise hide a leak).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Card, Order } from '../../../src/shared/merchant/order';
import { createCore, type Core } from '../../../src/core/create-core';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { insertIntent } from '../../../src/core/orders/order-intent-store';
import { applyOrderDetail } from '../../../src/core/orders/order-store';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';

export interface DeliveredOrder {
  readonly clientOrderRef: string;
  readonly productRef: number;
  readonly variantRef: number;
  readonly productName: string;
  readonly variantTitle: string;
  readonly unitPriceFen: number;
  /** The merchant's order time (Unix seconds). */
  readonly createdAt: number;
  readonly cards: readonly Card[];
  /** The merchant's state as last seen (default completed) and what it refunded (default 0). */
  readonly state?: string;
  readonly refundedFen?: number;
  /** The merchant's order number (default `PO` + clientOrderRef). */
  readonly platformOrderRef?: string;
}

export interface VaultKit {
  readonly core: Core;
  readonly dataDir: string;
  readonly logger: RedactingLogger;
  readonly logLines: string[];
  readonly orders: DeliveredOrder[];
  /** Stores an order and its cards as the tracker would when the merchant delivers them. */
  deliver(order: DeliveredOrder, receivedAt?: number): Promise<void>;
  close(): Promise<void>;
}

export async function createVaultKit(): Promise<VaultKit> {
  const dataDir = mkdtempSync(join(tmpdir(), 'procure-export-'));
  const logLines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' });
  const secrets = new MemorySecretStore();
  const core = await createCore({ dataDir, secrets, logger });
  // The same data key core opened (it lives in the shared secret store).
  const cipher = await CardCipher.open(secrets);
  const deliveryLogger = new RedactingLogger({ sink: () => undefined });
  const orders: DeliveredOrder[] = [];
  return {
    core,
    dataDir,
    logger,
    logLines,
    orders,
    deliver(order, receivedAt = order.createdAt + 60) {
      insertIntent(
        core.db,
        {
          clientOrderRef: order.clientOrderRef,
          batchId: null,
          productRef: order.productRef,
          variantRef: order.variantRef,
          productType: 'card',
          units: order.cards.length,
          purchaseSchemaRevision: null,
          purchaseEntries: [],
          optionLabels: [],
          orderCallbackUrl: null,
          imageUrl: null,
          confirmedUnitPriceFen: null,
        },
        order.createdAt,
      );
      const detail: Order = {
        clientOrderRef: order.clientOrderRef,
        platformOrderRef: order.platformOrderRef ?? `PO${order.clientOrderRef}`,
        productRef: order.productRef,
        variantRef: order.variantRef,
        productName: order.productName,
        variantTitle: order.variantTitle,
        productType: 'card',
        units: order.cards.length,
        unitPrice: order.unitPriceFen,
        totalAmount: order.unitPriceFen * order.cards.length,
        refundedAmount: order.refundedFen ?? 0,
        state: order.state ?? 'completed',
        allowedActions: [],
        revision: 3,
        failureReason: null,
        verificationHint: null,
        createdAt: order.createdAt,
        updatedAt: receivedAt,
        completedAt: receivedAt,
        orderCallbackUrl: null,
        imageUrl: null,
        entryCount: 0,
        refunds: [],
        card_list: [...order.cards],
      };
      applyOrderDetail({ db: core.db, cipher, logger: deliveryLogger, now: receivedAt }, detail, 'orderDetail');
      orders.push(order);
      return Promise.resolve();
    },
    async close() {
      cipher.dispose();
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
