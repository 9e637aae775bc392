// Client references (clientOrderRef, clientRefundRef): 1..64 characters of A-Z a-z 0-9 _ - (contract
// 7.1). 24 random bytes in base64url are 32 characters and 192 bits: unguessable and never reused,
// so a ref can only ever name one intent.
import { randomBytes } from 'node:crypto';

export const CLIENT_REF_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function newClientRef(prefix: 'o' | 'r'): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}
