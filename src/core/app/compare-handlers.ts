// catalog.compare, links.* and orders.offers (contract §15.4): channels of the desk, above the
// profiles, since each spans merchants. Searches run on each profile's own cache and index; links and
// rules live in the desk database (desk/link-store.ts); a member's price and stock are read from its
// profile's cache (desk/link-members.ts); what an order could fall back to is decided once, in
// desk/fallback-choice.ts. Nothing here asks a merchant.
import type { LinkView } from '../../shared/ipc/views/compare';
import { fallbackOffers, linkViewOf, type ProfileCatalogs } from '../desk/fallback-offers';
import { holdsVariant } from '../desk/link-members';
import { LinkInputError, LinkNotFoundError } from '../desk/link-store';
import { ProfileNotFoundError } from '../desk/profile-store';
import { searchAcross, type CompareSource } from './cross-profile-search';
import type { DeskServiceState, ProfileEntry } from './desk-service';
import { AppFailure } from './error-mapping';
import type { HandlersFor } from './handler-types';

type Channels = 'catalog.compare' | 'links.list' | 'links.link' | 'links.unlink' | 'links.forVariant' | 'links.setRule' | 'orders.offers';

/** A profile by its id (never by name here: the contract's keys carry ids). */
export async function profileEntry(state: DeskServiceState, profileId: string): Promise<ProfileEntry> {
  if (state.desk.profiles.find(profileId) === null) throw new ProfileNotFoundError(profileId);
  return state.entry(profileId);
}

/** The profiles' catalogs, for the link and offer readers. */
export function deskCatalogs(state: DeskServiceState): ProfileCatalogs {
  return async (profileId) => {
    const entry = await profileEntry(state, profileId);
    return { tag: entry.tag(), db: entry.profile.core.db };
  };
}

/** The store's refusals in the contract's words. */
async function asLinkAnswer<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LinkInputError) throw new AppFailure('INVALID_INPUT', error.message, [{ path: error.field, message: error.message }]);
    if (error instanceof LinkNotFoundError) throw new AppFailure('NOT_FOUND', error.message);
    throw error;
  }
}

export function compareHandlers(state: DeskServiceState): HandlersFor<Channels> {
  const { desk } = state;
  const links = desk.links;
  const catalogs = deskCatalogs(state);
  const now = (): number => Math.floor(Date.now() / 1000);
  const allLinks = (): Promise<LinkView[]> => Promise.all(links.list().map((record) => linkViewOf(catalogs, record)));

  return {
    'catalog.compare': async (query) => {
      const sources: CompareSource[] = [];
      for (const record of desk.profiles.list()) {
        let entry: ProfileEntry;
        try {
          entry = await state.entry(record.id);
        } catch (error) {
          // A profile whose database cannot open is left out of the comparison; its own screens say why.
          state.logger.warn('a merchant profile was left out of the comparison', { profile: record.id, error: error instanceof Error ? state.logger.redact(error.message) : 'unknown' });
          continue;
        }
        sources.push({ tag: entry.tag(), search: (q) => entry.profile.core.search(q), linkIdsOf: (refs) => links.linkIdsOfProducts(record.id, refs) });
      }
      return searchAcross(sources, query);
    },

    'links.list': () => allLinks(),

    'links.link': ({ a, b }) =>
      asLinkAnswer(async () => {
        for (const [field, key] of [['a', a], ['b', b]] as const) {
          const { tag, db } = await catalogs(key.profileId);
          if (!holdsVariant(db, key.productRef, key.variantRef)) {
            throw new AppFailure('NOT_FOUND', `product ${key.productRef} variant ${key.variantRef} is not in ${tag.name}'s catalog cache`, [{ path: field, message: 'not in the catalog cache' }]);
          }
        }
        return linkViewOf(catalogs, links.link(a, b, now()));
      }),

    'links.unlink': ({ key }) =>
      asLinkAnswer(async () => {
        await catalogs(key.profileId);
        if (links.unlink(key) === null) throw new AppFailure('NOT_FOUND', 'this variant is in no link');
        return allLinks();
      }),

    'links.forVariant': async ({ key }) => {
      await catalogs(key.profileId);
      const record = links.linkOf(key);
      return record === null ? null : linkViewOf(catalogs, record);
    },

    'links.setRule': ({ linkId, rule }) => asLinkAnswer(async () => linkViewOf(catalogs, links.setRule(linkId, rule, now()))),

    'orders.offers': async ({ key, units }) => (await fallbackOffers(links, catalogs, key, units)).offers,
  };
}
