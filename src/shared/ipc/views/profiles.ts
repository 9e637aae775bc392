// Merchant profiles as the renderer sees them (issue 17, contract §15): each one merchant connection
// with its own catalog, orders, vault and workers; one is active (the header's switcher), lists can
// span all of them and name each row's merchant.
import { z } from 'zod';
import { MERCHANT_NAME_SOURCES } from '../../merchant-label';
import { PROFILE_NAME_MAX } from '../../profile-name';
import { connectionStateSchema } from './connection';

/** A profile's id: short, stable, never reused (the first profile, from before profiles, is `p1`). */
export const profileIdSchema = z.string().regex(/^p[0-9a-z]{1,24}$/);

/** Who named a profile (shared/merchant-label.ts): the fallback is shown in the app's language. */
const nameSourceField = z.enum(MERCHANT_NAME_SOURCES).optional();

/** Which merchant a row of a cross-profile list belongs to. */
export const merchantTagSchema = z.object({ profileId: profileIdSchema, name: z.string(), nameSource: nameSourceField });
export type MerchantTag = z.infer<typeof merchantTagSchema>;

export const profileViewSchema = z.object({
  id: profileIdSchema,
  name: z.string(),
  nameSource: nameSourceField,
  active: z.boolean(),
  /** A key is stored and settings exist: the profile talks to its merchant. */
  connected: z.boolean(),
  baseUrl: z.string().nullable(),
  userId: z.string().nullable(),
  demo: z.boolean(),
  /** This profile's own connection state machine (each is shown separately). */
  state: connectionStateSchema,
});
export type ProfileView = z.infer<typeof profileViewSchema>;

export const profileListSchema = z.object({ activeId: profileIdSchema, profiles: z.array(profileViewSchema) });
export type ProfileList = z.infer<typeof profileListSchema>;

const nameInput = z.string().max(PROFILE_NAME_MAX * 4);

export const addProfileInputSchema = z.strictObject({ name: nameInput });
export const renameProfileInputSchema = z.strictObject({ profileId: profileIdSchema, name: nameInput });
export const profileRefInputSchema = z.strictObject({ profileId: profileIdSchema });

/** What keeps a profile from being removed, and what it still holds (offered as an export first). */
export const profileWorkSchema = z.object({
  orderIntents: z.number().int().nonnegative(),
  orders: z.number().int().nonnegative(),
  refunds: z.number().int().nonnegative(),
  aftersales: z.number().int().nonnegative(),
  /** Cards in its vault (never exported ones counted apart): removing deletes them with its database. */
  cards: z.number().int().nonnegative(),
  cardsNotExported: z.number().int().nonnegative(),
});
export type ProfileWork = z.infer<typeof profileWorkSchema>;

/** Removing is explicit: the buyer types the profile's name, and says the cards not exported may go. */
export const removeProfileInputSchema = z.strictObject({ profileId: profileIdSchema, confirmName: nameInput, discardUnexportedCards: z.boolean().optional() });

/** The merchant filter of a cross-profile list: one profile's rows only; absent = every profile. */
export const profileFilterField = profileIdSchema.optional();
