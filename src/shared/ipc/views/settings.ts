// The app's non-secret settings.
import { z } from 'zod';

/** The highest low-balance line the buyer may set: ten million yuan (anything above is a typo). */
export const MAX_LOW_BALANCE_FEN = 10_000_000_00;
/** The line until the buyer sets one: 100 yuan (what the app used before it was a setting). */
export const DEFAULT_LOW_BALANCE_FEN = 100_00;

export const settingsSchema = z.object({
  language: z.enum(['system', 'zh-CN', 'en']),
  theme: z.enum(['system', 'light', 'dark']),
  /** Off: polling only. Otherwise the tunnel spec of the CLI's --tunnel. */
  webhookTunnel: z.string().max(2100),
  webhookPort: z.number().int().min(0).max(65535),
  /**
   * Something the buyer should know about the webhook choice: 'localtunnelRetired' when a stored
   * localtunnel choice was turned into polling at start-up. Cleared by choosing again.
   */
  webhookNotice: z.enum(['none', 'localtunnelRetired']),
  /** Below this balance (fen) the buyer is notified once per crossing (core/books/low-balance.ts); 0: never. */
  lowBalanceFen: z.number().int().min(0).max(MAX_LOW_BALANCE_FEN),
});
export type Settings = z.infer<typeof settingsSchema>;
