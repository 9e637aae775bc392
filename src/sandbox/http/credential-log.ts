// Which credentials reached this merchant (GET /control/credentials): one row per user ID and key
// seen in the two headers, accepted or not, with a count. The key itself is never kept or shown,
// only its SHA-256, so a test can prove that a client sent this merchant its own key and no other
// (issue 17: one merchant profile's key never reaches another merchant).
import { createHash } from 'node:crypto';

export interface CredentialSeen {
  userId: string;
  apiKeySha256: string;
  accepted: boolean;
  requests: number;
}

export interface CredentialLog {
  record(userId: string, apiKey: string, accepted: boolean): void;
  list(): CredentialSeen[];
}

export function createCredentialLog(): CredentialLog {
  const seen = new Map<string, CredentialSeen>();
  return {
    record(userId, apiKey, accepted) {
      const apiKeySha256 = createHash('sha256').update(apiKey, 'utf8').digest('hex');
      const key = `${userId}\n${apiKeySha256}\n${String(accepted)}`;
      const row = seen.get(key);
      if (row === undefined) seen.set(key, { userId, apiKeySha256, accepted, requests: 1 });
      else row.requests += 1;
    },
    list: () => [...seen.values()].map((row) => ({ ...row })),
  };
}
