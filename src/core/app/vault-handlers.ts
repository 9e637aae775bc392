// vault.*: the masked list, and the only two ways plain card text leaves core: an explicit reveal
// (audited as `reveal` by the vault reader) and a copy to the host's clipboard (audited by the vault
// reader as one `copy` row naming the field, cleared after 30 s by the host). A copy's text goes to the clipboard, never into the answer. A card of a
// refunded or cancelled order needs `acknowledgeRefunded` (the vault reader refuses without it).
import { AppFailure } from './error-mapping';
import type { AppContext } from './app-context';
import type { HandlersFor } from './handler-types';
import { toMaskedCardView } from './view-mapping';

type Channels = 'vault.cards' | 'vault.reveal' | 'vault.copy' | 'vault.keyStatus' | 'vault.startNewKey';

export function vaultHandlers(ctx: AppContext): HandlersFor<Channels> {
  const { db, vault } = ctx.core;
  const orderExists = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM order_intents WHERE client_order_ref = ?');

  const requireOrder = (clientOrderRef: string): void => {
    if ((orderExists.get(clientOrderRef)?.n ?? 0) === 0) throw new AppFailure('NOT_FOUND', `no order ${clientOrderRef} here`);
  };

  return {
    'vault.keyStatus': () => ({ missing: ctx.core.vaultKeyMissing() }),

    'vault.startNewKey': async () => {
      if (!ctx.core.vaultKeyMissing()) throw new AppFailure('ACTION_NOT_ALLOWED', 'the vault key is present; there is nothing to replace');
      const waiting = await ctx.core.startNewVaultKey();
      // Their cards come back when the merchant's order detail is read again: ask for each soon.
      if (ctx.core.connection() !== null) {
        const services = await ctx.core.merchant();
        for (const ref of waiting) services.tracker.nudge(ref);
      }
      return { missing: ctx.core.vaultKeyMissing() };
    },

    'vault.cards': ({ clientOrderRef }) => {
      requireOrder(clientOrderRef);
      return vault.listCards(clientOrderRef).map(toMaskedCardView);
    },

    'vault.reveal': ({ clientOrderRef, seq, acknowledgeRefunded }) => {
      const card = vault.revealCard(clientOrderRef, seq, { acknowledgeRefunded });
      return { seq: card.seq, cardNo: card.cardNo, cardPassword: card.cardPassword, expiresAt: card.expiresAt };
    },

    'vault.copy': async ({ clientOrderRef, seq, field, acknowledgeRefunded }) => {
      const write = ctx.host.writeClipboard?.bind(ctx.host);
      if (write === undefined) throw new AppFailure('INTERNAL', 'clipboard not available in this host');
      // One `copy` row, written before the text leaves: if it cannot be written, nothing leaves.
      const card = vault.copyCard(clientOrderRef, seq, field, { acknowledgeRefunded });
      const text = field === 'cardNo' ? card.cardNo : card.cardPassword;
      if (text === null) throw new AppFailure('NOT_FOUND', `card ${vault.cardLabel(clientOrderRef, seq)} has no password`);
      await write(text, ctx.clipboardClearMs);
      return { clearsInSeconds: Math.round(ctx.clipboardClearMs / 1000) };
    },
  };
}
