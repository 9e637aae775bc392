// clientMessageRef, of the shape in shared/refs.ts (contract §9.2). 24 random bytes in base64url
// are 32 characters and 192 bits: never reused, so a ref can only ever name one message.
import { randomBytes } from 'node:crypto';

export function newClientMessageRef(): string {
  return `m_${randomBytes(24).toString('base64url')}`;
}
