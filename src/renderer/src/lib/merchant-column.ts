// The merchant column and filter of the lists that span every profile (orders, vault, after-sales,
// audit; contract §15.2): shown only once the buyer has more than one merchant, where a row's merchant
// is something to tell apart. A filter naming a profile that is gone reads as "every merchant".
import type { ProfileList } from '../../../shared/ipc/views/profiles';

export function showsMerchants(list: ProfileList | undefined): boolean {
  return list !== undefined && list.profiles.length > 1;
}

/** The `profile` input of a list for the chosen filter: absent for every merchant or a profile gone. */
export function profileFilterInput(list: ProfileList | undefined, chosen: string | null): { profile?: string } {
  if (chosen === null || list === undefined || !list.profiles.some((profile) => profile.id === chosen)) return {};
  return { profile: chosen };
}
