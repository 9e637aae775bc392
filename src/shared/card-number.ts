// The one numbering of an order's cards, for every place a buyer reads it: the vault list, the order's
// card list, the audit log and the export's labels. Cards are stored from seq 0; people count from 1,
// so the card stored at seq 0 is "#1" everywhere (core's audit rows and the renderer's screens alike).

/** The number a buyer reads for the card stored at `seq` (1 for seq 0). */
export function cardNumber(seq: number): number {
  return seq + 1;
}

/** `#<number>`: how a card is named after its order (`<order number> #1`). */
export function cardNumberLabel(seq: number): string {
  return `#${cardNumber(seq)}`;
}

/** The stored seq of the card a buyer calls #`number` (the CLI's `--card N`); the inverse of cardNumber. */
export function seqOfCardNumber(number: number): number {
  return number - 1;
}
