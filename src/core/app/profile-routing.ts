// Which profile's service answers a forwarded call (contract §15.2): the one the input names
// (`profileId`, taken off before the profile's own parse sees the input), else the one that owns the
// reference it carries (an order, a case or a batch shown in a list over every profile), else the
// active one. Our own references (clientOrderRef, batchId) are random and so belong to one profile
// only; a case number is the merchant's and two merchants may both use it, so the active profile
// is asked first.
import type { Database } from 'better-sqlite3';
import { profileIdSchema } from '../../shared/ipc/views/profiles';

export interface RoutedCall {
  /** The profile named by the input, or null (then the owner of a reference, else the active one). */
  readonly profileId: string | null;
  /** The input as the profile's own service should see it. */
  readonly input: unknown;
  /** A reference the input carries, to find its owner by. */
  readonly owned: { readonly kind: 'order' | 'case' | 'batch'; readonly ref: string } | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first card's order of a card list ({clientOrderRef, seq}[]), or null. */
function firstCardOrder(cards: unknown): string | null {
  const first: unknown = Array.isArray(cards) ? cards[0] : undefined;
  return isRecord(first) && typeof first['clientOrderRef'] === 'string' ? first['clientOrderRef'] : null;
}

/**
 * The order a call is about: its own clientOrderRef, else the vault's card lists and export
 * selections (vault.mark's `cards`, vault.export's and exportPreview's `selection`), whose cards
 * the vault over every merchant shows side by side. A list mixing merchants goes to the first card's
 * (the renderer sends one merchant's cards at a time).
 */
function orderRefOf(input: Record<string, unknown>): string | null {
  if (typeof input['clientOrderRef'] === 'string') return input['clientOrderRef'];
  const fromCards = firstCardOrder(input['cards']);
  if (fromCards !== null) return fromCards;
  const selection = input['selection'];
  if (!isRecord(selection)) return null;
  return typeof selection['clientOrderRef'] === 'string' ? selection['clientOrderRef'] : firstCardOrder(selection['cards']);
}

export function routeCall(rawInput: unknown): RoutedCall {
  if (!isRecord(rawInput)) return { profileId: null, input: rawInput, owned: null };
  const { profileId, ...rest } = rawInput;
  const named = profileIdSchema.safeParse(profileId);
  // A profileId that is not one (a number, '../p1') stays in the input: the profile's parse refuses it.
  const input = profileId === undefined || named.success ? rest : rawInput;
  const order = orderRefOf(rest);
  const owned =
    order !== null
      ? { kind: 'order' as const, ref: order }
      : typeof rest['platformCaseRef'] === 'string'
        ? { kind: 'case' as const, ref: rest['platformCaseRef'] }
        : typeof rest['batchId'] === 'string'
          ? { kind: 'batch' as const, ref: rest['batchId'] }
          : null;
  return { profileId: named.success ? named.data : null, input, owned };
}

// Every order of ours has its intent (written before the first send); foreign orders (reconciliation) are read-only rows of `orders`.
const OWNER_SQL: Record<'order' | 'case' | 'batch', string> = {
  order: 'SELECT 1 AS found FROM order_intents WHERE client_order_ref = @ref UNION ALL SELECT 1 FROM orders WHERE client_order_ref = @ref LIMIT 1',
  case: 'SELECT 1 AS found FROM aftersale_cases WHERE platform_case_ref = @ref',
  batch: 'SELECT 1 AS found FROM batches WHERE batch_id = @ref',
};

/** Whether this profile's database holds the reference. */
export function holds(db: Database, owned: NonNullable<RoutedCall['owned']>): boolean {
  return db.prepare<[{ ref: string }], { found: number }>(OWNER_SQL[owned.kind]).get({ ref: owned.ref }) !== undefined;
}
