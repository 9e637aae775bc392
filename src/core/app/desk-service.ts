// The app service over every merchant profile (issue 17, contract §15): what the hosts run. Each
// profile has its own app service over its own core (createAppService, unchanged: its workers, its
// quota, its webhook side, its change watch); this layer routes the contract's channels to them:
// - profiles.* are answered here (desk-handlers.ts);
// - the lists that span every profile (orders, vault, after-sales, audit) ask each profile's service
//   and merge the answers with a merchant tag (cross-profile-lists.ts);
// - settings that belong to the app, not to a merchant (language, theme, the webhook tunnel and port)
//   are written to every profile so each one's workers follow them; a merchant's own (the low-balance
//   line) stay with the active profile;
// - everything else goes to the active profile's service, input untouched (its parse is the only one).
// Events: what a screen of the active profile shows (connection, account, catalog, health) comes from
// the active profile only; what the cross-profile lists and notifications show comes from every
// profile, notifications tagged with their merchant. profiles.changed follows every profile's state.
import type { EventName } from '../../shared/ipc/contract';
import type { IpcResult } from '../../shared/ipc/ipc-result';
import type { MerchantTag, ProfileList, ProfileView } from '../../shared/ipc/views/profiles';
import type { Desk, OpenProfile } from '../desk/desk';
import { accountNames } from '../desk/profile-app-name';
import type { ProfileRecord } from '../desk/profile-store';
import type { SecretAwareLogger } from '../logging/logger';
import { RedactingLogger } from '../logging/redacting-logger';
import { createAppEvents } from './app-events';
import type { AppHost, AppServiceOptions } from './app-context';
import { createAppService, type AppService } from './app-service';
import { dispatchChannel } from './channel-dispatch';
import { crossProfileListHandlers, type ListSource } from './cross-profile-lists';
import { compareHandlers } from './compare-handlers';
import { deskHandlers } from './desk-handlers';
import { readSettings } from './app-settings';
import { createWebhookListener } from '../webhooks/webhook-listener';
import { readLastReceiverPort } from '../webhooks/webhook-settings';
import { fallbackBatchHandlers } from './fallback-batch-handlers';
import { holds, routeCall, type RoutedCall } from './profile-routing';
import { AppFailure, RelayedIpcError, toIpcError } from './error-mapping';
import type { ChannelHandlers } from './handler-types';
import type { ConnectionStateView, ConnectionStatus } from '../../shared/ipc/views/connection';

/** Events a screen of the active profile shows: another profile's would show the wrong merchant. */
const ACTIVE_PROFILE_EVENTS: ReadonlySet<EventName> = new Set<EventName>(['connection.changed', 'connection.state', 'account.changed', 'catalog.syncProgress', 'catalog.changed', 'events.health', 'books.reconcileProgress']);

/**
 * Another profile's products read one by one (its price guard, a watched product) are shown by the
 * screens over every profile (compare rows, link cards, offers), so that catalog.changed is passed on;
 * a sync's throttled "something changed" (no products named) stays the active profile's.
 */
function namesProducts(name: EventName, payload: unknown): boolean {
  if (name !== 'catalog.changed' || typeof payload !== 'object' || payload === null || !('productRefs' in payload)) return false;
  return Array.isArray(payload.productRefs) && payload.productRefs.length > 0;
}

/** A row's or notification's merchant, with who named it (the screens word the fallback). */
const merchantTag = (record: ProfileRecord): MerchantTag => ({ profileId: record.id, name: record.name, nameSource: record.nameSource });

/**
 * A profile the buyer has not named takes its account's name (contract §15.1): the nickname an
 * account answer carries, else the host; a new connection's host replaces only the fallback. Runs
 * before the notification that follows an account answer, so that it names the merchant the same way.
 * True when the name changed.
 */
function followAccountName(desk: Desk, id: string, event: EventName, payload: unknown, baseUrl: string | null): boolean {
  if (event !== 'account.changed' && event !== 'connection.changed') return false;
  const nickname = event === 'account.changed' && typeof payload === 'object' && payload !== null && 'nickname' in payload && typeof payload.nickname === 'string' ? payload.nickname : null;
  return desk.profiles.nameByApp(id, accountNames(nickname, baseUrl), nickname === null ? 'fallback' : 'app') !== null;
}

export interface ProfileEntry {
  readonly profile: OpenProfile;
  readonly service: AppService;
  readonly tag: () => MerchantTag;
  /** The profile's own service's answer, unwrapped: its error is thrown as the same IpcError. */
  ask<T>(channel: string, input: unknown): Promise<T>;
}

export interface DeskServiceState {
  readonly desk: Desk;
  readonly logger: SecretAwareLogger;
  entries(): ProfileEntry[];
  entry(id: string): Promise<ProfileEntry>;
  active(): Promise<ProfileEntry>;
  /** Stops and forgets a profile's service (before its core closes). */
  drop(id: string): Promise<void>;
  listView(): Promise<ProfileList>;
  /** Tells the window: the profiles changed; with `switched`, the active one's connection and state too. */
  announce(switched: boolean): Promise<void>;
}

function unwrap<T>(result: IpcResult<unknown>): T {
  // The profile's service checked its answer against the contract for this channel.
  if (result.ok) return result.value as T;
  throw new RelayedIpcError(result.error);
}

export function createDeskService(desk: Desk, host: AppHost, options: AppServiceOptions = {}): AppService {
  const logger: SecretAwareLogger = options.logger ?? new RedactingLogger({ sink: () => undefined });
  const events = createAppEvents(logger);
  const entries = new Map<string, Promise<ProfileEntry>>();
  const ready: ProfileEntry[] = [];
  const lifecycle = { started: false };
  let announcing: ReturnType<typeof setTimeout> | null = null;
  // One receiver for every profile, each on its own path token (contract §15.3). Its port: the one
  // the settings name, else the last one (earlier orders' callback URLs keep working), else a free one.
  const listener = createWebhookListener({
    logger,
    preferredPort: () => {
      const id = desk.profiles.activeId();
      const db = ready.find((item) => item.profile.record.id === id)?.profile.core.db ?? ready[0]?.profile.core.db;
      if (db === undefined) return null;
      const chosen = readSettings(db).webhookPort;
      return chosen !== 0 ? chosen : readLastReceiverPort(db);
    },
  });

  const isActive = (id: string): boolean => desk.profiles.activeId() === id;

  const build = async (id: string): Promise<ProfileEntry> => {
    const profile = await desk.open(id);
    const tag = (): MerchantTag => merchantTag(desk.profiles.find(id) ?? profile.record);
    const service = createAppService(profile.core, host, { ...options, logger, secrets: profile.secrets, merchantName: () => (desk.profiles.list().length > 1 ? tag().name : null), webhookListener: listener });
    service.onEvent((name, payload) => {
      if (followAccountName(desk, id, name, payload, profile.core.connection()?.baseUrl ?? null)) scheduleAnnounce();
      if (name === 'connection.state' || name === 'connection.changed') scheduleAnnounce();
      if (ACTIVE_PROFILE_EVENTS.has(name) && !isActive(id) && !namesProducts(name, payload)) return;
      // A notification names its merchant once there are several (contract §15.2).
      const named = name === 'app.notification' && typeof payload === 'object' && payload !== null && desk.profiles.list().length > 1;
      events.relay(name, named ? { ...payload, merchant: tag() } : payload);
    });
    const entry: ProfileEntry = { profile, service, tag, ask: async (channel, input) => unwrap(await service.handle(channel, input)) };
    if (lifecycle.started) await service.start();
    ready.push(entry);
    return entry;
  };
  const entry = (id: string): Promise<ProfileEntry> => {
    const existing = entries.get(id);
    if (existing !== undefined) return existing;
    const building = build(id);
    entries.set(id, building);
    building.catch(() => entries.delete(id));
    return building;
  };
  const active = async (): Promise<ProfileEntry> => {
    const id = desk.profiles.activeId();
    if (id === null) throw new AppFailure('INTERNAL', 'the desk has no merchant profile');
    return entry(id);
  };

  /** The profile a forwarded call goes to (profile-routing.ts): named, else owner of its reference, else active. */
  const target = async (routed: RoutedCall): Promise<ProfileEntry> => {
    if (routed.profileId !== null) return entry(desk.profiles.lookup(routed.profileId).id);
    const current = await active();
    const owned = routed.owned;
    if (owned === null || holds(current.profile.core.db, owned)) return current;
    for (const record of desk.profiles.list()) {
      const candidate = await entry(record.id);
      if (holds(candidate.profile.core.db, owned)) return candidate;
    }
    return current;
  };

  const profileView = async (item: ProfileEntry): Promise<ProfileView> => {
    const [status, state] = await Promise.all([item.ask<ConnectionStatus>('connection.status', undefined), item.ask<ConnectionStateView>('connection.state', undefined)]);
    const record = desk.profiles.find(item.profile.record.id) ?? item.profile.record;
    return { id: record.id, name: record.name, nameSource: record.nameSource, active: isActive(record.id), connected: status.connected, baseUrl: status.baseUrl, userId: status.userId, demo: status.demo, state };
  };
  const listView = async (): Promise<ProfileList> => {
    const records = desk.profiles.list();
    const views = await Promise.all(records.map(async (record) => profileView(await entry(record.id))));
    return { activeId: desk.profiles.activeId() ?? records[0]?.id ?? 'p1', profiles: views };
  };
  const announce = async (switched: boolean): Promise<void> => {
    try {
      if (switched) {
        const current = await active();
        events.emit('connection.changed', await current.ask('connection.status', undefined));
        events.emit('connection.state', await current.ask('connection.state', undefined));
      }
      events.emit('profiles.changed', await listView());
    } catch (error) {
      logger.warn('the profiles could not be announced', { error: error instanceof Error ? error.message : 'unknown' });
    }
  };
  // Connection states move in bursts (every merchant answer): one profiles.changed per burst.
  function scheduleAnnounce(): void {
    if (announcing !== null) return;
    announcing = setTimeout(() => {
      announcing = null;
      void announce(false);
    }, 50);
    announcing.unref();
  }

  const state: DeskServiceState = {
    desk,
    logger,
    entries: () => ready.filter((item) => desk.profiles.find(item.profile.record.id) !== null),
    entry,
    active,
    async drop(id) {
      const existing = entries.get(id);
      entries.delete(id);
      if (existing === undefined) return;
      const item = await existing;
      ready.splice(ready.indexOf(item), 1);
      await item.service.stop();
    },
    listView,
    announce,
  };

  const sources = (): ListSource[] =>
    desk.profiles
      .list()
      .map((record) => ready.find((item) => item.profile.record.id === record.id))
      .filter((item): item is ProfileEntry => item !== undefined)
      .map((item) => ({ tag: item.tag(), ask: (channel, input) => item.ask(channel, input) }));

  const handlers: Partial<ChannelHandlers> = { ...deskHandlers(state), ...compareHandlers(state), ...fallbackBatchHandlers(state), ...crossProfileListHandlers(sources) };

  return {
    async handle(channel, rawInput) {
      if (Object.hasOwn(handlers, channel)) {
        // Every profile's service exists before a list spans them.
        await Promise.all(desk.profiles.list().map((record) => entry(record.id).catch(() => null)));
        return dispatchChannel(handlers, logger, channel, rawInput);
      }
      try {
        const routed = routeCall(rawInput);
        return await (await target(routed)).service.handle(channel, routed.input);
      } catch (error) {
        // An unknown profileId is NOT_FOUND; a profile whose core cannot open is logged as INTERNAL.
        return { ok: false, error: toIpcError(error, logger, channel) };
      }
    },
    onEvent: (listener) => events.on(listener),
    async start() {
      if (lifecycle.started) return;
      lifecycle.started = true;
      const activeId = desk.profiles.activeId();
      for (const record of desk.profiles.list()) {
        try {
          await (await entry(record.id)).service.start();
        } catch (error) {
          // The host is told when the profile on screen cannot open (a database from a newer build…).
          if (record.id === activeId) throw error;
          logger.error('a merchant profile could not start', { profile: record.id, error: error instanceof Error ? logger.redact(error.message) : 'unknown' });
        }
      }
      await announce(false);
    },
    async stop() {
      if (!lifecycle.started) return;
      lifecycle.started = false;
      if (announcing !== null) clearTimeout(announcing);
      announcing = null;
      for (const item of [...ready]) await item.service.stop();
      // Every profile's webhook side has unmounted by now; close() ends what a failed stop left.
      await listener.close();
    },
  };
}
