// Client references (clientOrderRef, clientRefundRef), of the shape in shared/refs.ts (contract §7.1).
// 24 random bytes in base64url are 32 characters and 192 bits: unguessable and never reused,
// so a ref can only ever name one intent.
import { randomBytes } from 'node:crypto';

export function newClientRef(prefix: 'o' | 'r'): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}
