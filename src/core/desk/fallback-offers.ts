// The offers of one order (contract §15.4 orders.offers) assembled from the links (desk 0002) and each
// member's profile cache, decided by fallback-choice.ts. The desk's handlers, the batch's fallback and
// the CLI's `order create --fallback` all come through here.
import type { Database } from 'better-sqlite3';
import type { LinkMember, LinkView, Offer, Offers, VariantKey } from '../../shared/ipc/views/compare';
import type { MerchantTag } from '../../shared/ipc/views/profiles';
import { decideFallback, type FallbackDecision, type JudgedMember } from './fallback-choice';
import { factsOf, readLinkMember } from './link-members';
import type { LinkRecord, LinkStore } from './link-store';

/** Where a member's facts are read: its profile's merchant tag and catalog database. */
export type ProfileCatalogs = (profileId: string) => Promise<{ readonly tag: MerchantTag; readonly db: Database }>;

export async function readMember(catalogs: ProfileCatalogs, key: VariantKey): Promise<LinkMember> {
  const { tag, db } = await catalogs(key.profileId);
  return readLinkMember(db, tag, key);
}

export async function linkViewOf(catalogs: ProfileCatalogs, record: LinkRecord): Promise<LinkView> {
  return { linkId: record.linkId, members: await Promise.all(record.members.map((key) => readMember(catalogs, key))), rule: record.rule };
}

export interface OffersAnswer {
  readonly offers: Offers;
  readonly decision: FallbackDecision;
  /** The members' views by key, for the caller that orders from the choice. */
  readonly members: ReadonlyMap<string, LinkMember>;
}

export const keyText = (key: VariantKey): string => `${key.profileId}/${key.productRef}/${key.variantRef}`;

export async function fallbackOffers(links: LinkStore, catalogs: ProfileCatalogs, key: VariantKey, units: number): Promise<OffersAnswer> {
  const record = links.linkOf(key);
  const keys = record === null ? [key] : record.members;
  const views = new Map<string, LinkMember>();
  for (const member of keys) views.set(keyText(member), await readMember(catalogs, member));
  const currentView = views.get(keyText(key)) ?? (await readMember(catalogs, key));
  const decision = decideFallback({
    current: factsOf(currentView, key),
    others: (record?.members ?? []).filter((member) => keyText(member) !== keyText(key)).map((member) => factsOf(views.get(keyText(member)) ?? currentView, member)),
    rule: record?.rule ?? null,
    units,
  });
  const offer = (judged: JudgedMember): Offer => ({ ...(views.get(keyText(judged.key)) ?? currentView), withinLimit: judged.withinLimit, canSupply: judged.canSupply });
  const offers: Offers = {
    current: offer(decision.current),
    reason: decision.reason,
    alternatives: decision.alternatives.map(offer),
    link: record === null ? null : { linkId: record.linkId, members: record.members.map((member) => views.get(keyText(member)) ?? currentView), rule: record.rule },
    ruleChoice: decision.choice?.key ?? null,
  };
  return { offers, decision, members: views };
}
