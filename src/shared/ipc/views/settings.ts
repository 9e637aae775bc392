// The app's non-secret settings.
import { z } from 'zod';

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
});
export type Settings = z.infer<typeof settingsSchema>;
