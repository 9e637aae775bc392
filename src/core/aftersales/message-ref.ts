// clientMessageRef (contract §9.2: 1..64 characters of A-Z a-z 0-9 _ -). 24 random bytes in base64url
// are 32 characters and 192 bits: never reused, so a ref can only ever name one message.
import { randomBytes } from 'node:crypto';

export const CLIENT_MESSAGE_REF_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function newClientMessageRef(): string {
  return `m_${randomBytes(24).toString('base64url')}`;
}
