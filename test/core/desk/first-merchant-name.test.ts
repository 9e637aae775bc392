// The first merchant's name (issue 26, contract §15.1): a new data folder's p1 is the fallback (worded
// "商户 1" / "Merchant 1" by the screens) until its account answers; then its nickname, or its host
// when the nickname is unusable or another profile's; a later nickname follows; a name the buyer
// typed — "Merchant 1" included — is never replaced, across answers and restarts; the fallback's
// words in either language are refused for another profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskService } from '../../../src/core/app/desk-service';
import type { AppService } from '../../../src/core/app/app-service';
import { openDesk, type Desk } from '../../../src/core/desk/desk';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { createNodeHttpsPort } from '../../../src/core/merchant/node-https-port';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { profileListSchema, type ProfileList } from '../../../src/shared/ipc/views/profiles';
import type { IpcResult } from '../../../src/shared/ipc/ipc-result';
import { expectRefused, startMerchant, waitFor, type Merchant } from '../app/app-kit';

let merchant: Merchant;
let dataDir: string;
let desk: Desk;
let app: AppService;
const secrets = new MemorySecretStore();
const ports: ReturnType<typeof createNodeHttpsPort>[] = [];

const open = async (): Promise<void> => {
  desk = openDesk({ dataDir, secrets, logger: new RedactingLogger({ sink: () => undefined }), http: (ca) => {
    const port = createNodeHttpsPort(ca === null ? {} : { ca });
    ports.push(port);
    return port;
  } });
  app = createDeskService(desk, { startDemoMerchant: () => Promise.reject(new Error('no demo here')) }, { secrets });
  await app.start();
};
const close = async (): Promise<void> => {
  await app.stop();
  await desk.close();
};
const call = (channel: string, input?: unknown): Promise<IpcResult<unknown>> => app.handle(channel, input);
const list = async (): Promise<ProfileList> => {
  const result = await call('profiles.list');
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return profileListSchema.parse(result.value);
};
const first = async (): Promise<{ name: string; nameSource: string | undefined }> => {
  const p1 = (await list()).profiles.find((profile) => profile.id === 'p1');
  return { name: p1?.name ?? '', nameSource: p1?.nameSource };
};
/** The sandbox's own account record: its nickname is changed behind the app's back (no control route names it). */
const accountOf = (userId: string): { nickname: string } => {
  const account = merchant.sandbox.merchant.ctx.accounts.byUserId(userId);
  if (account === undefined) throw new Error(`no sandbox account ${userId}`);
  return account;
};

beforeAll(async () => {
  merchant = await startMerchant({ products: 20, seed: 3 });
  dataDir = mkdtempSync(join(tmpdir(), 'procure-first-name-'));
  await open();
}, 60_000);

afterAll(async () => {
  await close().catch(() => undefined);
  for (const port of ports) port.close();
  await merchant?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the first merchant’s name', () => {
  it('is the fallback before any account answered, then the host when the nickname is unusable, then the nickname', async () => {
    expect(await first()).toEqual({ name: 'Merchant 1', nameSource: 'fallback' });
    const account = await merchant.newAccount('1000');
    accountOf(account.userId).nickname = '   ';
    const connected = await call('connection.connect', { baseUrl: merchant.sandbox.baseUrl, userId: account.userId, apiKey: account.apiKey, caCertPem: merchant.caCertPem });
    expect(connected.ok).toBe(true);
    const host = new URL(merchant.sandbox.baseUrl).host;
    expect(await first()).toEqual({ name: host, nameSource: 'account' });

    // The merchant's account now carries a nickname: the next account answer names the profile by it.
    accountOf(account.userId).nickname = '华东采购部';
    expect((await call('account.get')).ok).toBe(true);
    await waitFor('the nickname as the name', async () => ((await first()).name === '华东采购部' ? true : null));
    expect((await first()).nameSource).toBe('account');
    // The name every list and notification carries is the same one.
    expect(desk.profiles.find('p1')?.name).toBe('华东采购部');
  });

  it('refuses the fallback’s words, in either language, for another profile while p1 has it; a taken nickname falls back to the host', async () => {
    expectRefused(await call('profiles.add', { name: '华东采购部' }), 'INVALID_INPUT');
    const added = await call('profiles.add', { name: 'Second shop' });
    expect(added.ok).toBe(true);
    await call('profiles.switch', { profileId: 'p1' });
    // A profile still on the fallback (made so directly: a second fresh p1 cannot exist in one folder).
    desk.db.prepare("UPDATE profiles SET name = 'Merchant 1', name_key = 'merchant 1', name_source = 'fallback' WHERE id = 'p1'").run();
    expectRefused(await call('profiles.rename', { profileId: 'p2', name: '商户 1' }), 'INVALID_INPUT');
    expectRefused(await call('profiles.rename', { profileId: 'p2', name: 'merchant 1' }), 'INVALID_INPUT');
    // The nickname is taken by p2 now: p1 is named by its host.
    expect((await call('profiles.rename', { profileId: 'p2', name: '华东采购部' })).ok).toBe(true);
    expect((await call('account.get')).ok).toBe(true);
    const host = new URL(merchant.sandbox.baseUrl).host;
    await waitFor('the host as the name', async () => ((await first()).name === host ? true : null));
    expect((await call('profiles.remove', { profileId: 'p2', confirmName: '华东采购部' })).ok).toBe(true);
  });

  it('keeps a name the buyer typed, "Merchant 1" included, across account answers and a restart', async () => {
    const renamed = await call('profiles.rename', { profileId: 'p1', name: 'Merchant 1' });
    expect(renamed.ok).toBe(true);
    expect(await first()).toEqual({ name: 'Merchant 1', nameSource: 'buyer' });
    expect((await call('account.get')).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await first()).toEqual({ name: 'Merchant 1', nameSource: 'buyer' });
    await close();
    await open();
    expect((await call('account.get')).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await first()).toEqual({ name: 'Merchant 1', nameSource: 'buyer' });
  });
});
