// The merchant switcher's keyboard shortcuts: Ctrl+Alt+1…9 makes the Nth profile active, Ctrl+Alt+M
// opens the switcher. Ctrl+Alt because the renderer had no shortcut on it and browsers and Electron
// reserve Ctrl+1…9 (tabs) and Ctrl+M/Alt+M (minimise, menus). Read from event.code (the physical key),
// not event.key: with Ctrl+Alt (AltGr on many layouts) or a Chinese input method, event.key is another
// character. Shift and Meta are left alone so Ctrl+Alt+Shift combinations stay free for others.

export interface ShortcutKeys {
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  readonly metaKey: boolean;
  /**
   * AltGr held (KeyboardEvent.getModifierState('AltGraph')): Windows reports it as Ctrl+Alt, and on
   * many layouts AltGr+7 types "{" — a character being typed, never a switch.
   */
  readonly altGraph?: boolean;
}

export type ProfileShortcut = { readonly kind: 'switch'; readonly index: number } | { readonly kind: 'open' };

/** The ones shown in the switcher, as typed: Ctrl+Alt+1 for the first profile, Ctrl+Alt+M to open. */
export const OPEN_SWITCHER_KEYS = 'Ctrl+Alt+M';
export const MAX_SHORTCUT_PROFILES = 9;

export function switchKeysOf(index: number): string | null {
  return index >= 0 && index < MAX_SHORTCUT_PROFILES ? `Ctrl+Alt+${index + 1}` : null;
}

export function profileShortcut(keys: ShortcutKeys): ProfileShortcut | null {
  if (!keys.ctrlKey || !keys.altKey || keys.shiftKey || keys.metaKey || keys.altGraph === true) return null;
  if (keys.code === 'KeyM') return { kind: 'open' };
  const digit = /^(?:Digit|Numpad)([1-9])$/.exec(keys.code);
  return digit === null ? null : { kind: 'switch', index: Number(digit[1]) - 1 };
}
