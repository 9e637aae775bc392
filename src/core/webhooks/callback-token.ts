// The secret part of the callback URL. Webhooks are unsigned (interface v1 §6.2, 6.4.9), so the path is the
// only capability a sender holds: 32 random bytes, base64url, compared in constant time so that the
// answer's timing says nothing about how much of a guess was right.
import { randomBytes, timingSafeEqual } from 'node:crypto';

const CALLBACK_TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newCallbackToken(): string {
  return randomBytes(CALLBACK_TOKEN_BYTES).toString('base64url');
}

export function isCallbackToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

export function callbackPath(token: string): string {
  return `/hooks/${token}`;
}

/** Constant-time equality of a request path with the current callback path. */
export function pathMatches(requestPath: string, expectedPath: string): boolean {
  const a = Buffer.from(requestPath, 'utf8');
  const b = Buffer.from(expectedPath, 'utf8');
  // Lengths differ for almost every wrong path; comparing b with itself keeps the work the same.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
