// The connection and the merchant account as the renderer sees them: whether a key is stored, never the key.
import { z } from 'zod';
import { fen } from './view-fields';

export const connectionStatusSchema = z.object({
  connected: z.boolean(),
  baseUrl: z.string().nullable(),
  userId: z.string().nullable(),
  /** Whether a key is stored, never the key. */
  keyStored: z.boolean(),
  /** Where secrets are kept: 'safe-storage', 'memory' (weaker backend refused), 'passphrase-file'. */
  secretStore: z.string(),
  /** Present and true when this host can move memory-only secrets into a passphrase file (the desktop app). */
  passphraseFileOffered: z.boolean().optional(),
  /** The built-in demo merchant (the sandbox) is the one connected. */
  demo: z.boolean(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

export const accountViewSchema = z.object({
  accountRef: z.number().int(),
  userId: z.string(),
  nickname: z.string(),
  accessState: z.string(),
  balanceFen: fen,
  currency: z.string(),
});
export type AccountView = z.infer<typeof accountViewSchema>;
