// The app's IPC contract: every channel's input and output, and every event pushed from main. Main
// (and the web host) validate every input against it; the preload and the web bridge are generated
// from it, so the renderer sees one domain-shaped object and never a channel name.
import { z } from 'zod';
import { MAX_PASTE_CHARS } from '../batch-file';
import { MAX_CA_CERT_PEM_CHARS } from '../connection-input';
import { MAX_EXPORT_PASSWORD_LENGTH } from '../password-policy';
import { CLIENT_REF_PATTERN } from '../refs';
import { categoryViewSchema, openedProductSchema, pricePointSchema, productViewSchema, searchQuerySchema, searchResultSchema, syncProgressSchema, syncStatusSchema, templateViewSchema } from './views/catalog';
import { accountViewSchema, connectionStateSchema, connectionStatusSchema } from './views/connection';
import { notificationSchema } from './views/notifications';
import { inFlightOrdersSchema, orderDetailSchema, orderRowSchema, placeOrderInputSchema, withdrawResultSchema } from './views/orders';
import { desktopSupportSchema, settingsSchema } from './views/settings';
import { appRouteSchema } from './views/navigation';
import { spendExportInputSchema, spendQuerySchema, spendReportSchema } from './views/books';
import { batchExportInputSchema, batchExportSchema, batchPlaceInputSchema, batchPreviewInputSchema, batchPreviewSchema, batchRefInputSchema, batchRetryResultSchema, batchStatusSchema, batchFileSchema } from './views/batch';
import { maskedCardSchema, vaultKeyStatusSchema, revealedCardSchema } from './views/vault';
import { webhookHealthSchema } from './views/webhooks';
import { reconcileExportInputSchema, reconcileInputSchema, reconcileProgressSchema, reconcileReportSchema } from './views/reconcile';
import { caseDetailSchema, caseListQuerySchema, caseRefInputSchema, caseRowSchema, openCaseInputSchema, sendCaseMessageInputSchema, unreadSummarySchema } from './views/aftersales';
import { auditEntrySchema, auditQuerySchema } from './views/audit';
import { compareQuerySchema, compareResultSchema, linkForInputSchema, linkInputSchema, linkViewSchema, offersInputSchema, offersSchema, setRuleInputSchema, unlinkInputSchema } from './views/compare';
import { addProfileInputSchema, profileFilterField, profileIdSchema, profileListSchema, profileRefInputSchema, profileWorkSchema, removeProfileInputSchema, renameProfileInputSchema } from './views/profiles';
import { cardSelectionSchema, exportInputSchema, exportPreviewSchema, exportResultSchema, markCardsInputSchema, vaultListQuerySchema, vaultListSchema } from './views/vault';

const none = z.undefined();
const orderRef = z.string().regex(CLIENT_REF_PATTERN);
const ref = z.object({ clientOrderRef: orderRef });
const cardRef = z.object({ clientOrderRef: orderRef, seq: z.number().int().nonnegative() });
/**
 * Which profile a call is for when it is not the active one (contract §15.2): the desk routes by it and
 * takes it off; a call carrying an order's, case's or batch's reference goes to its owner anyway.
 */
const profileScope = profileIdSchema.optional();

function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

export const CHANNELS = {
  'connection.status': channel(none, connectionStatusSchema),
  /** The one connection state machine's view (online, degraded, keyRefused, …; notConnected without a merchant). */
  'connection.state': channel(none, connectionStateSchema),
  /** A window shows the header: core keeps the merchant checked for the next few seconds (contract §8.3); answers the state. */
  'connection.watch': channel(none, connectionStateSchema),
  'connection.connect': channel(
    z.object({ baseUrl: z.string().max(2048), userId: z.string().min(1).max(128), apiKey: z.string().max(128), caCertPem: z.string().max(MAX_CA_CERT_PEM_CHARS).nullable() }),
    accountViewSchema,
  ),
  /** Trusts another CA for the connected merchant (or none): tested at once with the stored key, kept only if it connects. */
  'connection.setCaCert': channel(z.object({ caCertPem: z.string().max(MAX_CA_CERT_PEM_CHARS).nullable() }), accountViewSchema),
  'connection.startDemo': channel(none, accountViewSchema),
  'connection.replaceKey': channel(z.object({ apiKey: z.string().max(128) }), accountViewSchema),
  'connection.clearKey': channel(none, connectionStatusSchema),
  'account.get': channel(z.strictObject({ profileId: profileScope }).optional(), accountViewSchema),
  'catalog.categories': channel(none, z.array(categoryViewSchema)),
  'catalog.search': channel(searchQuerySchema, searchResultSchema),
  'catalog.product': channel(z.object({ productRef: z.number().int().positive(), profileId: profileScope }), productViewSchema),
  /** The product for the drawer: fetches its detail first, as the buyer's request, when it is missing or stale (contract §11.2). */
  'catalog.openProduct': channel(z.object({ productRef: z.number().int().positive(), profileId: profileScope }), openedProductSchema),
  'catalog.priceHistory': channel(z.object({ productRef: z.number().int().positive(), variantRef: z.number().int().nonnegative(), profileId: profileScope }), z.array(pricePointSchema)),
  'catalog.sync': channel(none, syncStatusSchema),
  'catalog.syncStatus': channel(none, syncStatusSchema),
  'catalog.setWatched': channel(z.object({ productRef: z.number().int().positive(), watched: z.boolean() }), productViewSchema),
  'orders.template': channel(z.object({ productRef: z.number().int().positive(), variantRef: z.number().int().nonnegative(), profileId: profileScope }), templateViewSchema),
  'orders.place': channel(placeOrderInputSchema.extend({ profileId: profileScope }), orderDetailSchema),
  'orders.list': channel(z.object({ intentStatus: z.string().max(40).optional(), state: z.string().max(40).optional(), limit: z.number().int().min(1).max(1000).optional(), profile: profileFilterField }), z.array(orderRowSchema)),
  'orders.get': channel(ref, orderDetailSchema),
  'orders.submitVerificationCode': channel(ref.extend({ code: z.string().regex(/^\d{4,8}$/) }), orderDetailSchema),
  'orders.cancel': channel(ref.extend({ reason: z.string().max(200).optional() }), orderDetailSchema),
  'orders.requestRefund': channel(ref.extend({ amountFen: z.number().int().positive().optional(), reason: z.string().min(1).max(200) }), orderDetailSchema),
  'orders.confirm': channel(
    ref.extend({ units: z.number().int().positive(), purchaseEntries: placeOrderInputSchema.shape.purchaseEntries, unitPriceFen: placeOrderInputSchema.shape.unitPriceFen }),
    orderDetailSchema,
  ),
  'orders.withdraw': channel(ref, withdrawResultSchema),
  /** The buyer retries an order the merchant failed too often (merchant_failing, contract §7.12): looked up first, then the same ref. */
  'orders.retryFailing': channel(ref, orderDetailSchema),
  /** Orders still in flight over every profile (contract §17.2): what quitting the desktop app asks about. */
  'orders.inFlight': channel(none, inFlightOrdersSchema),
  /** Asks the merchant for the order now (within quota) so actions are offered from a fresh status. */
  'orders.refresh': channel(ref, orderDetailSchema),
  /** Batch orders from a file (contract §13): read, map, check every row by the form's rules; writes nothing. */
  'batch.preview': channel(batchPreviewInputSchema.extend({ profileId: profileScope }), batchPreviewSchema),
  /** Every valid row one intent, the whole batch in one transaction before any send; the same draftRef answers the same batch. */
  'batch.place': channel(batchPlaceInputSchema.extend({ profileId: profileScope }), batchStatusSchema),
  'batch.status': channel(batchRefInputSchema, batchStatusSchema),
  /** The order form's "paste many accounts", split by the batch reader's CSV rules (quotes, commas and newlines in cells). */
  'batch.parsePaste': channel(z.object({ text: z.string().max(MAX_PASTE_CHARS), fieldCount: z.number().int().min(1).max(100) }), z.object({ rows: z.array(z.array(z.string())) })),
  /** The failed rows only, again (same ref where the merchant stored nothing); the batch's own file is needed. */
  'batch.retryFailed': channel(batchRefInputSchema.extend({ file: batchFileSchema }), batchRetryResultSchema),
  /** The price the merchant asks now, confirmed for every row the guard parked as price_changed. */
  'batch.confirmPrice': channel(batchRefInputSchema.extend({ unitPriceFen: z.number().int().positive().max(100_000_000) }), batchStatusSchema),
  /** The file's rows with status, clientOrderRef, platformOrderRef and error (no card secrets). */
  'batch.exportResults': channel(batchExportInputSchema, batchExportSchema),
  'vault.cards': channel(ref, z.array(maskedCardSchema)),
  // acknowledgeRefunded: the buyer was asked and goes on with a card of a refunded or cancelled order.
  'vault.reveal': channel(cardRef.extend({ acknowledgeRefunded: z.boolean().optional() }), revealedCardSchema),
  'vault.copy': channel(cardRef.extend({ field: z.enum(['cardNo', 'cardPassword']), acknowledgeRefunded: z.boolean().optional() }), z.object({ clearsInSeconds: z.number().int() })),
  'vault.list': channel(vaultListQuerySchema, vaultListSchema),
  'vault.exportPreview': channel(z.object({ selection: cardSelectionSchema }), exportPreviewSchema),
  'vault.export': channel(exportInputSchema, exportResultSchema),
  'vault.mark': channel(markCardsInputSchema, z.object({ updated: z.number().int().nonnegative() })),
  'vault.keyStatus': channel(none, vaultKeyStatusSchema),
  /** The buyer's explicit choice after DATA_KEY_MISSING: a new data key; unreadable cards are replaced when delivered again. */
  'vault.startNewKey': channel(none, vaultKeyStatusSchema),
  'audit.list': channel(auditQuerySchema, z.array(auditEntrySchema)),
  'aftersales.list': channel(caseListQuerySchema, z.array(caseRowSchema)),
  'aftersales.get': channel(caseRefInputSchema, caseDetailSchema),
  'aftersales.refresh': channel(caseRefInputSchema, caseDetailSchema),
  'aftersales.open': channel(openCaseInputSchema, caseDetailSchema),
  'aftersales.send': channel(sendCaseMessageInputSchema, caseDetailSchema),
  'aftersales.markRead': channel(caseRefInputSchema, caseRowSchema),
  'aftersales.unread': channel(none, unreadSummarySchema),
  /** Spend at a glance (contract §12.3): the dashboard's charts and `cli report spend` read this one report. */
  'books.spend': channel(spendQuerySchema, spendReportSchema),
  /** One chart's data as CSV or XLSX, written where the host says (a save dialog; the web host's download). */
  'books.exportSpend': channel(spendExportInputSchema, exportResultSchema),
  'settings.get': channel(none, settingsSchema),
  'settings.set': channel(settingsSchema.partial(), settingsSchema),
  /** Which desktop settings this host can apply (close to tray, start at login; contract §17): none in the web host. */
  'settings.desktop': channel(none, desktopSupportSchema),
  // Write-only, like the API key: the renderer learns whether a token is stored, never the token.
  'settings.ngrokAuthtoken': channel(none, z.object({ stored: z.boolean() })),
  'settings.saveNgrokAuthtoken': channel(z.object({ authtoken: z.string().min(1).max(512) }), z.object({ stored: z.boolean() })),
  'events.health': channel(none, webhookHealthSchema),
  // While secrets are memory-only (desktop): moves them into a passphrase-protected file. The
  // passphrase follows the export password rule (password-policy.ts); it is never stored or echoed.
  'secrets.usePassphraseFile': channel(z.object({ passphrase: z.string().min(1).max(MAX_EXPORT_PASSWORD_LENGTH) }), connectionStatusSchema),
  /** Reconciles a range with the merchant (contract §12.2): pages GET /orders (resumed after an interruption), compares, checks the balance. */
  'books.reconcile': channel(reconcileInputSchema, reconcileReportSchema),
  /** The latest finished reconciliation of this merchant, or null. */
  'books.reconcileLatest': channel(none, reconcileReportSchema.nullable()),
  /** The latest report again over the books as they are now (after an action elsewhere, like opening a case). */
  'books.recompare': channel(none, reconcileReportSchema.nullable()),
  /** Refreshes one of the app's orders from the merchant (authenticated GET through the tracker), then recompares. */
  'books.refreshOrder': channel(ref, reconcileReportSchema.nullable()),
  /** Records an order placed elsewhere with this account, read-only, from its authenticated detail; then recompares. */
  'books.recordForeign': channel(ref, reconcileReportSchema.nullable()),
  /** The latest report as XLSX or CSV (no card secret in it); the web host hands it over as a download. */
  'books.exportReconcile': channel(reconcileExportInputSchema, exportResultSchema),
  /** The merchant profiles, the active one first in the header (contract §15.1). */
  'profiles.list': channel(none, profileListSchema),
  /** A new, not yet connected profile; it becomes the active one (the connect screen follows). */
  'profiles.add': channel(addProfileInputSchema, profileListSchema),
  'profiles.rename': channel(renameProfileInputSchema, profileListSchema),
  /** Makes one profile the active one: the catalog, ordering and its settings are that merchant's. */
  'profiles.switch': channel(profileRefInputSchema, profileListSchema),
  /** What a profile still has open (removal refuses) and its cards (offered as an export first). */
  'profiles.work': channel(profileRefInputSchema, profileWorkSchema),
  /** Removes a profile with its data and its secrets; refused while its work is open. */
  'profiles.remove': channel(removeProfileInputSchema, profileListSchema),
  /** One search over every profile's catalog, merchant and price side by side (contract §15.4). */
  'catalog.compare': channel(compareQuerySchema, compareResultSchema),
  'links.list': channel(none, z.array(linkViewSchema)),
  /** Joins two merchants' variants (and the links they were in) as the same thing to buy. */
  'links.link': channel(linkInputSchema, linkViewSchema),
  'links.unlink': channel(unlinkInputSchema, z.array(linkViewSchema)),
  /** The link a variant belongs to, or null. */
  'links.forVariant': channel(linkForInputSchema, linkViewSchema.nullable()),
  'links.setRule': channel(setRuleInputSchema, linkViewSchema),
  /** What the order dialog offers when its merchant cannot supply or asks above the rule's limit. */
  'orders.offers': channel(offersInputSchema, offersSchema),
} as const;

export type ChannelName = keyof typeof CHANNELS;
export type ChannelInput<C extends ChannelName> = z.input<(typeof CHANNELS)[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<(typeof CHANNELS)[C]['output']>;

export const EVENTS = {
  'connection.changed': connectionStatusSchema,
  /** Pushed on every transition of the connection state machine (not on every request). */
  'connection.state': connectionStateSchema,
  'account.changed': accountViewSchema,
  'catalog.syncProgress': syncProgressSchema,
  'catalog.changed': z.object({ productRefs: z.array(z.number().int()) }),
  'orders.changed': z.object({ clientOrderRefs: z.array(z.string()) }),
  'aftersales.changed': z.object({ platformCaseRefs: z.array(z.string()) }),
  'vault.changed': z.object({ clientOrderRefs: z.array(z.string()) }),
  'events.health': webhookHealthSchema,
  /** The app's core process: restarting after it ended (the UI says "reconnecting"), or ready again (the UI reloads its data). */
  'core.state': z.object({ state: z.enum(['ready', 'reconnecting']) }),
  'app.notification': notificationSchema,
  /** Desktop app: go to what a clicked notification is about (contract §17.4); pushed by main, never by core. */
  'app.navigate': appRouteSchema,
  /** A reconciliation's paging: pages read of how many, requests sent. */
  'books.reconcileProgress': reconcileProgressSchema,
  /** A profile was added, renamed, removed or switched to, or one's connection state changed. */
  'profiles.changed': profileListSchema,
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

export function isChannelName(name: string): name is ChannelName {
  return Object.hasOwn(CHANNELS, name);
}
