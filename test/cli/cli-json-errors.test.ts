// `--json` failures as a script reads them (issue 26, docs/cli.md "Errors as JSON"): one line on stdout,
// {"error":{"code","message","exitCode"}} (with merchantCode and requestId when the merchant refused),
// the process ending with the documented exit code, the text still on stderr; without --json stdout
// stays empty. Usage mistakes (even arguments that do not parse), an unknown reference, a refused key
// and a merchant's long wait, against a hostile merchant over HTTPS.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { startHostileMerchant, type HostileMerchant } from '../support/hostile-merchant';
import { connectedDataDir, jsonErrorOf, runCli, type CliResult, type JsonError } from './cli-kit';

let merchant: HostileMerchant;
let dataDir: string;

beforeAll(async () => {
  merchant = await startHostileMerchant({ products: 3 });
  dataDir = await connectedDataDir(merchant, 'procure-cli-json-errors-');
});
afterAll(async () => {
  await merchant?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The one line on stdout, parsed; fails when stdout holds anything else. */
const errorLine = (result: CliResult): JsonError => ({ error: jsonErrorOf(result) });

describe('cli --json errors', () => {
  it('a usage mistake: exit 2 and {"error":{"code":"USAGE",…}} on stdout, the text on stderr', async () => {
    const unknown = await runCli(dataDir, ['no-such-command', '--json']);
    expect(unknown.code).toBe(EXIT.usage);
    expect(errorLine(unknown).error).toMatchObject({ code: 'USAGE', message: 'unknown command: no-such-command', exitCode: 2 });
    expect(unknown.stderr).toContain('error: unknown command: no-such-command');

    const foreignOption = await runCli(dataDir, ['orders', '--units', '3', '--json']);
    expect(foreignOption.code).toBe(EXIT.usage);
    expect(errorLine(foreignOption).error).toMatchObject({ code: 'USAGE', message: 'orders takes no --units' });

    // Arguments that do not parse at all: --json is still honoured.
    const unparsed = await runCli(dataDir, ['orders', '--json', '--units']);
    expect(unparsed.code).toBe(EXIT.usage);
    expect(errorLine(unparsed).error.code).toBe('USAGE');

    const unknownRef = await runCli(dataDir, ['order', 'show', 'o_unknown', '--json']);
    expect(unknownRef.code).toBe(EXIT.usage);
    expect(errorLine(unknownRef).error.code).toBe('USAGE');
  });

  it('without --json an error prints nothing on stdout, as before', async () => {
    const result = await runCli(dataDir, ['no-such-command']);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: unknown command');
  });

  it('the merchant refuses the key: exit 3, MERCHANT_REFUSED with its code and request ID, no key anywhere', async () => {
    merchant.mode({ kind: 'revoked' });
    const result = await runCli(dataDir, ['sync', '--json']);
    expect(result.code, result.stderr).toBe(EXIT.business);
    const { error } = errorLine(result);
    expect(error).toMatchObject({ code: 'MERCHANT_REFUSED', merchantCode: 401001, exitCode: 3 });
    expect(error.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(error.message).toContain('401001 INVALID_CREDENTIAL');
    expect(result.stdout).not.toContain(merchant.apiKey);
  });

  it('the merchant asks to wait a day: exit 4, MERCHANT_WAIT naming the time', async () => {
    merchant.mode({ kind: 'retryAfter', value: '86400', limit: 600 });
    const result = await runCli(dataDir, ['sync', '--json']);
    expect(result.code, result.stderr).toBe(EXIT.network);
    const { error } = errorLine(result);
    expect(error.code).toBe('MERCHANT_WAIT');
    expect(error.message).toMatch(/may be sent again from \d{4}-\d\d-\d\dT/);
    merchant.mode({ kind: 'normal' });
  });
});
