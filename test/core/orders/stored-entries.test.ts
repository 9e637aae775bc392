// How an intent's entries are kept with the labels of the options picked (contract §7.11): one JSON for
// groups and labels, plain and sealed alike, and rows kept before labels were (a bare array) read back as
// groups without labels, so the views fall back to the cached template.
import { describe, expect, it } from 'vitest';
import { openRechargedEntries, sealRechargedEntries } from '../../../src/core/orders/recharged-entries';
import { readStoredEntries, storedEntriesJson } from '../../../src/core/orders/stored-entries';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';
import { optionLabelsOf } from '../../../src/shared/purchase-option-labels';

const ZONE = { fieldRef: 'zone', options: [{ value: 'android-qq', label: '安卓QQ区' }, { value: 'ios-qq', label: '苹果QQ区' }] };
const ACCOUNT = { fieldRef: 'account', options: null };
const groups = [{ zone: 'android-qq', account: 'player12345' }, { zone: 'ios-qq', account: 'player67890' }];

describe('stored entries', () => {
  it('finds the label of each picked option, and none for a typed value or an option the field does not list', () => {
    expect(optionLabelsOf([ZONE, ACCOUNT], groups)).toEqual([{ zone: '安卓QQ区' }, { zone: '苹果QQ区' }]);
    expect(optionLabelsOf([ZONE, ACCOUNT], [{ zone: 'nowhere', account: 'android-qq' }])).toEqual([{}]);
  });

  it('keeps groups and labels in one JSON and reads both shapes back', () => {
    const labels = optionLabelsOf([ZONE, ACCOUNT], groups);
    expect(readStoredEntries(storedEntriesJson(groups, labels) ?? '')).toEqual({ groups, optionLabels: labels });
    expect(storedEntriesJson([], [])).toBeNull();
    // Kept before labels were: the bare array of groups.
    expect(readStoredEntries(JSON.stringify(groups))).toEqual({ groups, optionLabels: null });
  });

  it('seals the labels with their groups, and opens entries sealed before labels were', async () => {
    const cipher = await CardCipher.open(new MemorySecretStore());
    const labels = optionLabelsOf([ZONE, ACCOUNT], groups);
    const sealed = sealRechargedEntries(cipher, 'o_1', groups, labels);
    expect(sealed?.includes(Buffer.from('安卓QQ区', 'utf8'))).toBe(false);
    expect(openRechargedEntries(cipher, 'o_1', sealed)).toEqual({ groups, optionLabels: labels });
    const legacy = cipher.seal(JSON.stringify(groups), { clientOrderRef: 'o_2', field: 'recharged_entries' });
    expect(openRechargedEntries(cipher, 'o_2', legacy)).toEqual({ groups, optionLabels: null });
    expect(sealRechargedEntries(cipher, 'o_3', null, null)).toBeNull();
  });
});
