import { describe, expect, it } from 'vitest';
import { passphraseFormState } from '../../src/renderer/src/lib/passphrase-form';

describe('passphrase-file dialog validation', () => {
  it('sends only a passphrase the shared rule accepts, typed the same twice', () => {
    expect(passphraseFormState('', '')).toMatchObject({ ready: false, mismatch: false, verdict: { problem: 'empty' } });
    expect(passphraseFormState('short1', 'short1')).toMatchObject({ ready: false, verdict: { problem: 'tooShort' } });
    expect(passphraseFormState('P@ssw0rd!!2025', 'P@ssw0rd!!2025')).toMatchObject({ ready: false, verdict: { problem: 'common' } });
    expect(passphraseFormState('Lantern-river 47 orchard', '')).toMatchObject({ ready: false, mismatch: false, verdict: { ok: true } });
    expect(passphraseFormState('Lantern-river 47 orchard', 'Lantern-river 47 orchar')).toMatchObject({ ready: false, mismatch: true });
    expect(passphraseFormState('Lantern-river 47 orchard', 'Lantern-river 47 orchard')).toMatchObject({ ready: true, mismatch: false });
  });
});
