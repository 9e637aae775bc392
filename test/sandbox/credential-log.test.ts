// GET /control/credentials (docs/sandbox.md): which user IDs and keys reached the OpenAPI, accepted
// or not, counted, the key only as its SHA-256 — over real HTTPS against an in-process sandbox, and
// behind the control API's token like every other control call.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlHeaders } from '../support/control-auth';
import { callApi } from '../support/merchant-http';
import { startSandbox, type RunningSandbox } from '../support/sandbox-process';

let sandbox: RunningSandbox;
const sha = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

beforeAll(async () => {
  sandbox = await startSandbox(['--products', '50']);
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

describe('sandbox credential log', () => {
  it('lists each user ID and hashed key the headers carried, accepted or not, never the key itself', async () => {
    expect((await callApi(sandbox, 'GET', '/account')).status).toBe(200);
    expect((await callApi(sandbox, 'GET', '/account')).status).toBe(200);
    const wrongKey = 'AK_00000000000000000000000000000000';
    expect((await callApi(sandbox, 'GET', '/account', { auth: { userId: sandbox.userId, apiKey: wrongKey } })).status).toBe(401);

    const answer = await fetch(`${sandbox.controlUrl}/control/credentials`, { headers: controlHeaders(sandbox.controlToken, 'GET') });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain(sandbox.apiKey);
    expect(text).not.toContain(wrongKey);
    const rows = JSON.parse(text) as { userId: string; apiKeySha256: string; accepted: boolean; requests: number }[];
    expect(rows).toEqual(
      expect.arrayContaining([
        { userId: sandbox.userId, apiKeySha256: sha(sandbox.apiKey), accepted: true, requests: 2 },
        { userId: sandbox.userId, apiKeySha256: sha(wrongKey), accepted: false, requests: 1 },
      ]),
    );
    expect(rows).toHaveLength(2);

    const refused = await fetch(`${sandbox.controlUrl}/control/credentials`);
    expect(refused.status).toBe(401);
  });
});
