// The shapes of the references the app writes or accepts, in one home for every side (IPC schemas,
// core's ref makers and the vault's record names).
// - Client references (clientOrderRef, clientRefundRef, clientMessageRef, contract §7.1 and 9.2) and
//   the merchant's case references we accept back: 1..64 characters of A-Z a-z 0-9 _ -. Such a ref
//   never holds `:`, which the vault relies on to name a card secret unambiguously.
// - draftRef (one review of the order form): the same alphabet, at least 16 characters, so
//   a guessed or short value can never name someone else's review.
// The SQL CHECKs of the migrations say the same in their own words; migrations are history and keep
// theirs.

/** clientOrderRef, clientRefundRef, clientMessageRef, platformCaseRef. */
export const CLIENT_REF_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** The order form's draftRef. */
export const DRAFT_REF_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export function isClientRef(value: string): boolean {
  return CLIENT_REF_PATTERN.test(value);
}

export function isDraftRef(value: string): boolean {
  return DRAFT_REF_PATTERN.test(value);
}
