// What keeps a merchant profile from being removed (core's profile-removal.ts refuses on the same):
// orders not yet accepted or not finished, refunds open, after-sales not yet sent.
import type { ProfileWork } from '../../../shared/ipc/views/profiles';

export function openWorkCount(work: ProfileWork): number {
  return work.orderIntents + work.orders + work.refunds + work.aftersales;
}
