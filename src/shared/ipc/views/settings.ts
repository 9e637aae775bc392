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
  /** Desktop app, Windows and Linux: closing the window hides it to the tray, the app keeps working (contract §17). */
  closeToTray: z.boolean(),
  /** Desktop app: started at login, hidden (the tray on Windows and Linux, the Dock on macOS; contract §17). */
  startAtLogin: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * What the host running the app can do of the desktop settings (contract §17): closing hides to the
 * tray (Windows, Linux), or the Dock keeps the app (macOS), or there is no window to close (the web
 * host); starting at login through the system's login items (Windows, macOS), an XDG autostart file
 * (Linux), not from an unpackaged build, or not at all (the web host).
 */
export const desktopSupportSchema = z.object({
  closeToTray: z.enum(['tray', 'dock', 'none']),
  startAtLogin: z.enum(['loginItem', 'autostartFile', 'notInstalled', 'none']),
});
export type DesktopSupport = z.infer<typeof desktopSupportSchema>;
export const NO_DESKTOP: DesktopSupport = { closeToTray: 'none', startAtLogin: 'none' };
