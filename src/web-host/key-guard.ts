// The last check before a frame leaves for the browser: the API key is write-only from the renderer,
// so a frame that contains a key this host has seen is never sent, whatever a handler returned. The
// app service already keeps keys out of its answers; this is the belt to its braces, and cheap (a
// substring test against the one or two keys of this run).
import { API_KEY_SECRET } from '../core';
import type { SecretStore } from '../core';

/** Shorter values could occur in ordinary text by chance; real keys are far longer. */
const MIN_KEY_LENGTH = 8;

export interface KeyGuard {
  remember(apiKey: string): void;
  /** Whether the text contains a remembered key. */
  leaks(text: string): boolean;
}

export function createKeyGuard(): KeyGuard {
  const keys = new Set<string>();
  return {
    remember(apiKey) {
      if (apiKey.length < MIN_KEY_LENGTH) return;
      // Also as it would appear inside a JSON string.
      keys.add(apiKey);
      keys.add(JSON.stringify(apiKey).slice(1, -1));
    },
    leaks: (text) => [...keys].some((key) => text.includes(key)),
  };
}

/** The store core uses, unchanged, except that every API key read or written is remembered by the guard. */
export function guardedSecretStore(store: SecretStore, guard: KeyGuard): SecretStore {
  return {
    kind: store.kind,
    async get(name) {
      const value = await store.get(name);
      if (name === API_KEY_SECRET && value !== null) guard.remember(value);
      return value;
    },
    async set(name, value) {
      if (name === API_KEY_SECRET) guard.remember(value);
      await store.set(name, value);
    },
    delete: (name) => store.delete(name),
  };
}
