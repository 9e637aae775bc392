// The merchant switcher's shortcuts: Ctrl+Alt+1…9 switch to the Nth profile, Ctrl+Alt+M opens the
// switcher, read by the physical key so AltGr layouts and input methods do not change them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { profileShortcut, switchKeysOf, type ShortcutKeys } from '../../src/renderer/src/lib/profile-shortcuts';

const keys = (code: string, patch: Partial<ShortcutKeys> = {}): ShortcutKeys => ({ code, ctrlKey: true, altKey: true, shiftKey: false, metaKey: false, ...patch });

describe('profile shortcuts', () => {
  it('maps Ctrl+Alt+1…9 (top row and keypad) to the first to ninth profile', () => {
    for (let n = 1; n <= 9; n++) {
      expect(profileShortcut(keys(`Digit${n}`))).toEqual({ kind: 'switch', index: n - 1 });
      expect(profileShortcut(keys(`Numpad${n}`))).toEqual({ kind: 'switch', index: n - 1 });
    }
    expect(profileShortcut(keys('Digit0'))).toBeNull();
    expect(profileShortcut(keys('KeyM'))).toEqual({ kind: 'open' });
  });

  it('needs exactly Ctrl and Alt: Ctrl+1 (browser tabs), Alt+M, Shift or Meta added are left alone', () => {
    expect(profileShortcut(keys('Digit1', { altKey: false }))).toBeNull();
    expect(profileShortcut(keys('KeyM', { ctrlKey: false }))).toBeNull();
    expect(profileShortcut(keys('Digit1', { shiftKey: true }))).toBeNull();
    expect(profileShortcut(keys('KeyM', { metaKey: true }))).toBeNull();
  });

  it('AltGr (reported as Ctrl+Alt on Windows) types a character and switches nothing', () => {
    expect(profileShortcut(keys('Digit7', { altGraph: true }))).toBeNull();
    expect(profileShortcut(keys('KeyM', { altGraph: true }))).toBeNull();
    expect(profileShortcut(keys('Digit7', { altGraph: false }))).toEqual({ kind: 'switch', index: 6 });
  });

  it('any other key does nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (code, ctrlKey, altKey, shiftKey, metaKey) => {
        const shortcut = profileShortcut({ code, ctrlKey, altKey, shiftKey, metaKey });
        if (shortcut === null) return;
        expect(ctrlKey && altKey && !shiftKey && !metaKey).toBe(true);
        expect(code === 'KeyM' || /^(Digit|Numpad)[1-9]$/.test(code)).toBe(true);
      }),
    );
  });

  it('shows the keys of the first nine profiles only', () => {
    expect(switchKeysOf(0)).toBe('Ctrl+Alt+1');
    expect(switchKeysOf(8)).toBe('Ctrl+Alt+9');
    expect(switchKeysOf(9)).toBeNull();
    expect(switchKeysOf(-1)).toBeNull();
  });
});
