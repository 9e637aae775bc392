// The messages between a host and the core process (DESIGN.md: core runs in its own process, started by
// Electron main with utilityProcess.fork and by the web host with child_process.fork). Both ends check
// every message against these schemas: the other end is another process and its bad input gets a clear
// error, never an undefined behaviour. Secrets (the API key, the vault's data key) cross only here, as
// answers to the core's `secrets.get` requests — never in argv or the environment.
import { z } from 'zod';
import { ipcErrorSchema } from '../../shared/ipc/ipc-result';
import { desktopSupportSchema } from '../../shared/ipc/views/settings';

/** What the host's AppHost can do; core's proxy offers exactly these methods. */
export const hostCapabilitiesSchema = z.object({
  writeClipboard: z.boolean(),
  chooseExportPath: z.boolean(),
  /** AppHost.exportsAsDownloads (absent: false, a host from before it existed). */
  exportsAsDownloads: z.boolean().optional(),
  usePassphraseFile: z.boolean(),
  /** AppHost.desktop: the desktop settings this host applies (absent: none, the web host). */
  desktop: desktopSupportSchema.optional(),
});
export type HostCapabilities = z.infer<typeof hostCapabilitiesSchema>;

/** Everything core needs to open, none of it secret. */
export const coreInitSchema = z.object({
  dataDir: z.string().min(1),
  logLevel: z.enum(['debug', 'info', 'warn', 'error']),
  secretStoreKind: z.string().min(1),
  capabilities: hostCapabilitiesSchema,
  changeScanIntervalMs: z.number().int().positive().optional(),
  clipboardClearMs: z.number().int().positive().optional(),
  requestTimeoutMs: z.number().int().positive().optional(),
  /** Core's clock runs this many times faster (tests and the demo sandbox's faster clock); absent: real time. */
  timeScale: z.number().positive().max(10_000).optional(),
});
export type CoreInit = z.infer<typeof coreInitSchema>;

/** The host's requests answered by core's host proxy: the secret store port and the AppHost port. */
export const HOST_METHODS = ['secrets.get', 'secrets.set', 'secrets.delete', 'startDemoMerchant', 'writeClipboard', 'chooseExportPath', 'usePassphraseFile'] as const;
export type HostMethod = (typeof HOST_METHODS)[number];

const requestId = z.number().int().nonnegative();

export const hostToCoreSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('init'), init: coreInitSchema }),
  /** One call of the app's contract (AppService.handle); answered by `result` with the same id. */
  z.object({ t: z.literal('call'), id: requestId, channel: z.string(), input: z.unknown() }),
  /** The answer to one of core's host requests. */
  z.object({ t: z.literal('hostValue'), id: requestId, value: z.unknown() }),
  z.object({ t: z.literal('hostError'), id: requestId, error: z.object({ name: z.string(), message: z.string(), code: z.string().optional() }) }),
  /** The host's secret store changed where it keeps secrets (memory → passphrase file). */
  z.object({ t: z.literal('secretStoreKind'), kind: z.string().min(1) }),
  z.object({ t: z.literal('stop') }),
]);
export type HostToCore = z.infer<typeof hostToCoreSchema>;

export const coreToHostSchema = z.discriminatedUnion('t', [
  /** Core is open and its app service started: calls are answered from now on. */
  z.object({ t: z.literal('ready') }),
  /** Core could not open (a locked database, a missing data folder): the host shows it and does not loop. */
  z.object({ t: z.literal('failed'), message: z.string() }),
  z.object({
    t: z.literal('result'),
    id: requestId,
    result: z.union([z.object({ ok: z.literal(true), value: z.unknown() }), z.object({ ok: z.literal(false), error: ipcErrorSchema })]),
  }),
  /** A pushed event of the contract (EVENTS); the host checks the payload against the contract again. */
  z.object({ t: z.literal('event'), name: z.string(), payload: z.unknown() }),
  /**
   * `callId`: the host's call (`call`) that led to this request, when there is one, so that the host
   * answers it in that call's context (the web host's clipboard writes to the tab that asked).
   */
  z.object({ t: z.literal('hostCall'), id: requestId, method: z.enum(HOST_METHODS), args: z.array(z.unknown()), callId: requestId.optional() }),
  /** A log line, already redacted by core's logger. */
  z.object({ t: z.literal('log'), line: z.string() }),
  z.object({ t: z.literal('stopped') }),
]);
export type CoreToHost = z.infer<typeof coreToHostSchema>;
