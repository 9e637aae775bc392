// Card credentials for completed card orders: random, so that no two orders ever share a code.
import { randomInt } from 'node:crypto';
import type { Card } from './order-records';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function digits(count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += String(randomInt(10));
  return text;
}

function password(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let group = '';
    for (let i = 0; i < 4; i++) group += PASSWORD_ALPHABET.charAt(randomInt(PASSWORD_ALPHABET.length));
    groups.push(group);
  }
  return groups.join('-');
}

/** One card per unit; some merchants' cards expire (a year), others do not (null). */
export function generateCards(units: number, productRef: number, nowSeconds: number): Card[] {
  const expiresAt = productRef % 3 === 0 ? null : nowSeconds + 365 * 86_400;
  return Array.from({ length: units }, () => ({ card_no: digits(16), card_password: password(), expiresAt }));
}
