// Core's public entry: the one door through which the hosts (Electron main, the web host, the CLI) reach
// core. Anything a host needs is exported here by name; everything else in src/core is core's own
// business, and the lint rules in eslint.config.js refuse a host import that goes past this file.

// Composition and the app's contract over core.
export type { AppHost } from './app/app-context';
export { createAppService } from './app/app-service';
export { AppFailure } from './app/error-mapping';
export { API_KEY_SECRET, ConnectionInputError } from './connection/connection-settings';
export { NotConnectedError, createCore } from './create-core';
export type { Core, MerchantServices } from './create-core';
export { DESK_FILE_NAME, openDesk } from './desk/desk';
export type { Desk, OpenProfile } from './desk/desk';
export { ProfileNameError, ProfileNotFoundError } from './desk/profile-store';
export { LastProfileError, ProfileBusyError, ProfileCardsNotExportedError, profileWork } from './desk/profile-removal';
export { holds } from './app/profile-routing';
export type { ProfileRecord } from './desk/profile-store';
export { fallbackOffers } from './desk/fallback-offers';
export type { ProfileCatalogs } from './desk/fallback-offers';
export { merchantShares, NoBatchFallbackError, routeBatch } from './desk/batch-route';
export type { BatchRoute } from './desk/batch-route';
export { batchFallback, recordBatchFallback } from './desk/batch-fallback-store';
export { createDeskService } from './app/desk-service';

// Logging (redacting) and private files, which every host also uses for its own lines and folders.
export type { Logger, LogFields, SecretAwareLogger } from './logging/logger';
export { RedactingLogger, streamSink } from './logging/redacting-logger';
export { createRotatingFileSink } from './logging/rotating-file-sink';
export type { RotatingFileSink } from './logging/rotating-file-sink';
export { createPrivateFile, securePrivateFile, securePrivateFolder } from './platform/private-files';

// Secret stores a host may choose from (the desktop shell adds safeStorage behind the same port).
export { writeFileAtomic } from './secrets/atomic-file';
export { MemorySecretStore } from './secrets/memory-secret-store';
export { PassphraseSecretStore, WrongPassphraseError } from './secrets/passphrase-secret-store';
export { assertSecretName, isSecretName } from './secrets/secret-store';
export type { SecretStore } from './secrets/secret-store';

// Merchant images for a host that serves the page.
export { MERCHANT_IMAGE_STATUS, createMerchantImageFetcher } from './images/merchant-image-fetcher';
export type { MerchantImageResult } from './images/merchant-image-fetcher';

// What the command line reads and reports: typed errors, stored intents and orders, the webhook side.
export { createCatalogReader } from './catalog/catalog-reader';
export { MerchantApiError, MerchantNotBeforeError, MerchantProtocolError, MerchantTransportError } from './merchant/merchant-errors';
export { IntentStateError, PriceUnknownError, PurchaseValidationError, TemplateNotSupportedError, TemplateOfflineError, VariantNotFoundError } from './orders/order-errors';
export type { TemplateSource } from './orders/template-source';
export type { OrderPlacement } from './orders/order-placement';
export { ACCESS_PARKED_STATUSES, getIntent, listIntents } from './orders/order-intent-store';
export type { AccessParkStatus, OrderIntent } from './orders/order-intent-store';
export { cachedUnitPriceFen } from './orders/order-intents';
export { getStoredOrder, listRefunds, listStoredOrders } from './orders/order-store';
export type { PurchaseInput } from './orders/purchase-validation';
export { readCachedTemplate } from './orders/template-cache';
export { ReconcilePagingError } from './books/order-list-pager';
export { CatalogPagingError } from './catalog/paging-guard';
export { MAX_SERVER_FAILURES } from './merchant/retry-policy';
export { ReconcileRangeError } from './books/reconcile-range';
export { LocalDayError, localDayOf, nextDay, processTimeZone, startOfLocalDay } from './books/local-days';
export { spendReportForConnection } from './books/spend-books';
export { BatchFileError } from './batch/batch-file-error';
export { readBoundedFile } from './batch/batch-file-open';
export { batchStatus, placeBatch, prepareBatch, retryFailedRows } from './batch/batch-orders';
export type { BatchDeps, BatchFile } from './batch/batch-orders';
export { DuplicatesNotConfirmedError } from './batch/batch-duplicates';
export { batchResults } from './batch/batch-results';
export { createWebhookService } from './webhooks/webhook-service';
export type { WebhookService } from './webhooks/webhook-service';
export { createTunnel } from './webhooks/tunnels/create-tunnel';
export { saveNgrokAuthtoken } from './webhooks/tunnels/ngrok-tunnel';
export type { TunnelSpec } from './webhooks/tunnels/tunnel';
export { TunnelSpecError, parseTunnelSpec } from './webhooks/tunnels/tunnel-spec';

// Core in its own process: the supervisor a host runs it under, and the Node launcher (Electron main
// has its own, over utilityProcess.fork).
export { createCoreSupervisor } from './process/core-supervisor';
export type { CoreProcessState, CoreSupervisorOptions, SupervisedCore } from './process/core-supervisor';
export type { CoreChild, CoreLauncher } from './process/core-channel';
export type { CoreInit } from './process/core-process-protocol';
export { coreProcessEnv, nodeCoreLauncher } from './process/node-core-launcher';
export type { AppService } from './app/app-service';

// The command line's vault and after-sales commands (issue 16): the same services the app's vault and
// after-sales channels use (app/vault-handlers.ts, vault-export-handlers.ts, aftersale-handlers.ts).
export { createCardQueries, SelectionError } from './export/card-selection';
export { listVault } from './export/vault-list';
export { createCardExporter } from './export/card-exporter';
export { ExportInputError } from './export/export-request';
export { withExtension } from './export/export-file-name';
export { RefundedCardsError } from './vault/refund-mark';
export { CardNotFoundError } from './vault/vault-reader';
export { CardDecryptionError, DataKeyMissingError } from './vault/card-cipher';
export { createCaseViews } from './aftersales/case-views';
export { AftersaleNotFoundError, CaseActionNotAllowedError, CaseOpenPendingError, CaseValidationError } from './aftersales/aftersale-errors';
export { getOutboxMessage } from './aftersales/outbox-store';
