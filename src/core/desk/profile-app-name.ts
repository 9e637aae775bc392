// The name the app gives a merchant profile the buyer has not named (issue 26, contract §15.1): its
// account's nickname, else its API host; before any account answered, the fallback the screens word
// in the app's language ("商户 1" / "Merchant 1", stored as the English one for the CLI and logs).
import { FIRST_MERCHANT_FALLBACK, type MerchantNameSource } from '../../shared/merchant-label';
import { profileNameProblem } from '../../shared/profile-name';

/** The first profile's stored name while nothing better is known; shown in the app's language (shared/merchant-label.ts). */
export const FIRST_PROFILE_FALLBACK_NAME = FIRST_MERCHANT_FALLBACK.en;

/** Who gave a profile its name: the buyer (kept), its account, or the fallback (both the app's). */
export type ProfileNameSource = MerchantNameSource;

export const hostOfAddress = (baseUrl: string | null | undefined): string | null => (typeof baseUrl === 'string' && URL.canParse(baseUrl) ? new URL(baseUrl).host : null);

/** The account's names, best first, each usable as a profile name: the nickname, then the host. */
export function accountNames(nickname: string | null, baseUrl: string | null): string[] {
  return [nickname, hostOfAddress(baseUrl)].filter((name): name is string => name !== null && profileNameProblem(name) === null);
}
