// The channels of the desk itself (contract §15.1): the profiles, and the settings that belong to the
// app rather than to one merchant.
import type { Settings } from '../../shared/ipc/views/settings';
import { FALLBACK_LABELS } from '../../shared/merchant-label';
import { profileNameKey } from '../../shared/profile-name';
import { checkRemovable, profileWork } from '../desk/profile-removal';
import type { DeskServiceState } from './desk-service';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';

/** Settings of the app, not of a merchant: every profile keeps the same (its workers read its own copy). */
const DESK_WIDE_SETTINGS = ['language', 'theme', 'webhookTunnel', 'webhookPort', 'closeToTray', 'startAtLogin'] as const satisfies readonly (keyof Settings)[];

function deskWidePart(input: Partial<Settings>): Partial<Settings> {
  const part: Partial<Settings> = {};
  for (const key of DESK_WIDE_SETTINGS) if (input[key] !== undefined) Object.assign(part, { [key]: input[key] });
  return part;
}

type DeskChannel = 'profiles.list' | 'profiles.add' | 'profiles.rename' | 'profiles.switch' | 'profiles.work' | 'profiles.remove' | 'settings.set';

export function deskHandlers(state: DeskServiceState): HandlersFor<DeskChannel> {
  const { desk } = state;
  const now = (): number => Math.floor(Date.now() / 1000);
  return {
    'profiles.list': () => state.listView(),
    'profiles.add': async ({ name }) => {
      const from = await state.active();
      const added = await desk.add(name);
      const entry = await state.entry(added.record.id);
      // The new merchant's workers follow the app's language, theme and webhook choice from the start.
      const current = await from.ask<Settings>('settings.get', undefined);
      await entry.ask('settings.set', deskWidePart(current));
      desk.profiles.setActive(added.record.id, now());
      await state.announce(true);
      return state.listView();
    },
    'profiles.rename': async ({ profileId, name }) => {
      desk.profiles.rename(profileId, name);
      await state.announce(false);
      return state.listView();
    },
    'profiles.switch': async ({ profileId }) => {
      await state.entry(profileId);
      desk.profiles.setActive(profileId, now());
      await state.announce(true);
      return state.listView();
    },
    'profiles.work': async ({ profileId }) => profileWork((await state.entry(profileId)).profile.core.db),
    'profiles.remove': async ({ profileId, confirmName, discardUnexportedCards }) => {
      const entry = await state.entry(profileId);
      const record = desk.profiles.lookup(profileId);
      // The fallback name is typed as the buyer reads it, in either language (shared/merchant-label.ts).
      const names = record.nameSource === 'fallback' ? [record.name, ...FALLBACK_LABELS] : [record.name];
      if (!names.some((name) => profileNameKey(name) === profileNameKey(confirmName))) throw new AppFailure('INVALID_INPUT', 'type the profile name to remove it', [{ path: 'confirmName', message: 'does not match the profile name' }]);
      const options = { discardUnexportedCards: discardUnexportedCards === true };
      // Checked before its workers stop, so a refusal leaves it running as it was.
      checkRemovable(entry.profile.core.db, options);
      const wasActive = desk.profiles.activeId() === profileId;
      await state.drop(profileId);
      try {
        await desk.remove(profileId, options);
      } catch (error) {
        // Work appeared between the check and the stop: it runs again, as it was.
        await (await state.entry(profileId)).service.start();
        throw error;
      }
      state.logger.info('merchant profile removed', { profile: profileId });
      await state.announce(wasActive);
      return state.listView();
    },
    'settings.set': async (input) => {
      const active = await state.active();
      const shared = deskWidePart(input);
      if (Object.keys(shared).length > 0) {
        for (const entry of state.entries()) if (entry !== active) await entry.ask('settings.set', shared);
      }
      return active.ask<Settings>('settings.set', input);
    },
  };
}
