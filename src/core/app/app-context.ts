// What every channel handler shares: core, the host's ports, the event emitter, the named readers,
// and the connection lifecycle (merchant services started while connected). Built by app-service.ts.
import type { AccountView, ConnectionStateView, ConnectionStatus } from '../../shared/ipc/views/connection';
import type { Account } from '../../shared/merchant/account';
import type { DesktopSupport } from '../../shared/ipc/views/settings';
import type { CatalogReader } from '../catalog/catalog-reader';
import type { Core, MerchantServices } from '../create-core';
import type { ProductWatchStore } from '../webhooks/product-watch-store';
import type { SecretAwareLogger } from '../logging/logger';
import type { SecretStore } from '../secrets/secret-store';
import type { WebhookListener } from '../webhooks/webhook-listener';
import type { AppEvents } from './app-events';
import type { OrderViews } from './order-views';
import type { SyncRunner } from './sync-runner';

/** The ports a host (Electron main, the web host, a test) provides. */
export interface AppHost {
  /** Starts (or returns) the built-in demo merchant: the sandbox, in-process. */
  startDemoMerchant(): Promise<{ baseUrl: string; userId: string; apiKey: string; caCertPem: string }>;
  /** Writes text to the system clipboard and clears it after `clearAfterMs` if it still holds it. Absent: no clipboard here. */
  writeClipboard?(text: string, clearAfterMs: number): Promise<void>;
  /**
   * Where to write an export: Electron asks with a save dialog (null: the buyer cancelled); the web
   * host answers a path in its export folder. Absent: this host cannot export.
   */
  chooseExportPath?(suggestedFileName: string): Promise<string | null>;
  /**
   * The export written where chooseExportPath said is then handed to a browser as a one-time download
   * and deleted (the web host): the audit log names the file the browser saved, never that folder.
   */
  exportsAsDownloads?: boolean;
  /**
   * Moves memory-only secrets into a passphrase-protected file and keeps them there from now on (the
   * desktop app; the web host uses --data with PROCURE_PASSPHRASE instead). Absent: not offered.
   */
  usePassphraseFile?(passphrase: string): Promise<void>;
  /** Which desktop settings this host applies (close to tray, start at login; contract §17). Absent: none (the web host). */
  desktop?: DesktopSupport;
}

export interface AppServiceOptions {
  /** The logger core was built with (so the key registered there is redacted here too). */
  readonly logger?: SecretAwareLogger;
  /** The secret store core was built with: needed to clear the key and to tell whether one is stored. */
  readonly secrets?: SecretStore;
  /** How the secret store is described in connection.status; default the store's kind. */
  readonly secretStoreKind?: string;
  /** Real ms between scans for changed orders and watched products; default 500. */
  readonly changeScanIntervalMs?: number;
  /** How long a copied card value stays on the clipboard; default 30 s. */
  readonly clipboardClearMs?: number;
  /** The profile's name (the desk's, contract §15) for export file names; null while the buyer has one merchant only. */
  readonly merchantName?: () => string | null;
  /** The desk's one webhook receiver, shared by every profile (contract §15.3); absent: the connection's own. */
  readonly webhookListener?: WebhookListener;
}

export interface AppContext {
  readonly core: Core;
  readonly host: AppHost;
  readonly logger: SecretAwareLogger;
  readonly events: AppEvents;
  readonly secrets: SecretStore | null;
  readonly reader: CatalogReader;
  readonly orderViews: OrderViews;
  readonly watchStore: ProductWatchStore;
  readonly sync: SyncRunner;
  readonly clipboardClearMs: number;
  /** Where an export goes: the host's chooser, asked with a name that names the merchant (merchant-file-name.ts); undefined when this host cannot save files. */
  exportPathChooser(): ((suggestedFileName: string) => Promise<string | null>) | undefined;
  nowSeconds(): number;
  /** The running merchant services of the stored connection; NotConnectedError without a stored key. */
  merchant(): Promise<MerchantServices>;
  /** The services if this process runs them now; null otherwise (never builds them). */
  activeServices(): MerchantServices | null;
  connectionStatus(): Promise<ConnectionStatus>;
  /** The running connection's state (connection-state-relay.ts); notConnected without one. */
  connectionState(): ConnectionStateView;
  /** The stored tunnel or port changed: the running webhook side (if any) is rebuilt from the settings. */
  webhookSettingsChanged(): Promise<void>;
  /** Checks and stores credentials (GET /account first), starts the services, tells the UI. */
  connect(input: { baseUrl: string; userId: string; apiKey: string; caCertPem: string | null }, demo: boolean): Promise<AccountView>;
  /** Forgets the key and stops the services. */
  disconnect(): Promise<ConnectionStatus>;
  /** A fresh account seen: pushed as account.changed, low balance noticed. */
  accountSeen(account: Account): AccountView;
  /** Something this process just changed: scan for changes now (orders.changed and notifications follow). */
  changed(): void;
}
