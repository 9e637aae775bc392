import { describe, expect, it } from 'vitest';
import { RedactingLogger, redactText } from '../../../src/core/logging/redacting-logger';

// Canaries: if any of these appears anywhere in the output, a secret leaked.
const API_KEY = 'AK_0123456789abcdef0123456789abcdef';
const CARD_NO = 'CARDNO-7731-0042-9910';
const CARD_PASSWORD = 'Pw+/9x#canary=1';
const TOPUP_ACCOUNT = '13800138000';
const VERIFICATION_CODE = '482913';
const CANARIES = [API_KEY, CARD_NO, CARD_PASSWORD, encodeURIComponent(CARD_PASSWORD), TOPUP_ACCOUNT, VERIFICATION_CODE];

function capture(level: 'debug' | 'info' = 'debug'): { logger: RedactingLogger; lines: string[]; text: () => string } {
  const lines: string[] = [];
  const logger = new RedactingLogger({ sink: (line) => lines.push(line), level, now: () => new Date(0) });
  return { logger, lines, text: () => lines.join('\n') };
}

function expectNoCanary(output: string): void {
  for (const canary of CANARIES) expect(output, `leaked ${canary}`).not.toContain(canary);
}

describe('RedactingLogger', () => {
  it('writes one JSON line per call with level, message and fields', () => {
    const { logger, lines } = capture('info');
    logger.debug('dropped');
    logger.info('synced', { products: 3 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'synced', fields: { products: 3 } });
  });

  it('hides secret keys at any depth, in arrays, maps and headers, keeping the business code', () => {
    const { logger, text, lines } = capture();
    logger.info('request', {
      headers: { 'X-Service-User-Id': '170001', 'X-Service-Key': 'not-even-key-shaped', Authorization: 'Bearer tok-secret-1' },
      fetchHeaders: new Headers({ 'x-service-key': 'hdr-secret-value' }),
      body: { apiKey: 'body-secret', nested: [{ key: 'deep-secret' }] },
      order: { card_list: [{ card_no: CARD_NO, card_password: CARD_PASSWORD, expiresAt: null }] },
      camel: new Map([['cardPassword', 'map-secret-value']]),
      purchaseEntries: [{ mobile: TOPUP_ACCOUNT }],
      verification: { code: VERIFICATION_CODE },
      verificationCode: VERIFICATION_CODE,
      response: { code: 422120, message: 'not allowed' },
    });
    const output = text();
    expectNoCanary(output);
    for (const secret of ['not-even-key-shaped', 'tok-secret-1', 'hdr-secret-value', 'body-secret', 'deep-secret', 'map-secret-value']) expect(output).not.toContain(secret);
    const fields = (JSON.parse(lines[0] ?? '') as { fields: Record<string, unknown> }).fields;
    expect(fields.response).toEqual({ code: 422120, message: 'not allowed' });
    expect(fields.purchaseEntries).toEqual([{ mobile: '***' }]);
    expect(fields.headers).toMatchObject({ 'X-Service-User-Id': '170001' });
  });

  it('hides the API key shape and registered secrets in any string: messages, URLs, bodies', () => {
    const { logger, text } = capture();
    const forget = [CARD_PASSWORD, TOPUP_ACCOUNT, CARD_NO].map((s) => logger.registerSecret(s));
    logger.info(`calling with ${API_KEY}`);
    logger.warn('url', { url: `https://m.example.com/openapi/v1/account?apiKey=${API_KEY}&key=other-secret&x=1`, asUrl: new URL(`https://m.example.com/p?pw=${encodeURIComponent(CARD_PASSWORD)}`) });
    logger.info('body', { raw: JSON.stringify({ purchaseEntries: [{ mobile: TOPUP_ACCOUNT }], verificationCode: VERIFICATION_CODE, card_password: CARD_PASSWORD }) });
    logger.info(`free text mentions ${TOPUP_ACCOUNT} and card ${CARD_NO}`);
    logger.info('verificationCode=482913 sent');
    const output = text();
    expectNoCanary(output);
    expect(output).not.toContain('other-secret');
    expect(output).toContain('AK_***');
    expect(output).toContain('x=1');
    forget.forEach((f) => f());
  });

  it('serializes errors through the same redaction (message, stack, cause, own fields)', () => {
    const { logger, text, lines } = capture();
    // Free text cannot be recognised as a code, so the caller registers what it sends.
    logger.registerSecret(TOPUP_ACCOUNT);
    logger.registerSecret(VERIFICATION_CODE);
    const cause = new Error(`upstream said card_password=${CARD_PASSWORD}`);
    const error = Object.assign(new Error(`top-up for ${TOPUP_ACCOUNT} failed with key ${API_KEY}`, { cause }), { requestId: 'req_abc', code: 500001 });
    logger.error('failed', { error, list: [new TypeError(`code ${VERIFICATION_CODE} rejected`)], verification: { code: VERIFICATION_CODE } });
    const output = text();
    expectNoCanary(output);
    expect(output).toContain('code *** rejected');
    const fields = (JSON.parse(lines[0] ?? '') as { fields: { error: Record<string, unknown> } }).fields;
    expect(fields.error).toMatchObject({ name: 'Error', requestId: 'req_abc', code: 500001 });
    expect(String(fields.error.stack)).toContain('AK_***');
    expect(String(fields.error.message)).not.toContain(API_KEY);
  });

  it('handles circular structures, deep nesting, bytes and odd values without throwing', () => {
    const { logger, lines } = capture();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i += 1) deep = { next: deep };
    logger.info('odd', { loop, deep, bytes: new TextEncoder().encode(CARD_PASSWORD), big: 10n, fn: () => 1, when: new Date(0), sym: Symbol('s') });
    const output = lines[0] ?? '';
    expect(output).toContain('[Circular]');
    expect(output).toContain('[Truncated]');
    expect(output).toContain('[binary 15 bytes]');
    expectNoCanary(output);
  });

  it('shares secrets and level with child loggers and survives a failing sink', () => {
    const { logger, text } = capture();
    const child = logger.child({ component: 'merchant' });
    logger.registerSecret(CARD_NO);
    child.info(`card ${CARD_NO}`);
    expect(text()).toContain('"component":"merchant"');
    expectNoCanary(text());
    const broken = new RedactingLogger({
      sink: () => {
        throw new Error('disk full');
      },
    });
    expect(() => broken.error('x')).not.toThrow();
  });

  it('forgets a secret when asked and refuses values too short to hide safely', () => {
    const { logger, text } = capture();
    const forget = logger.registerSecret('LONGSECRET');
    logger.registerSecret('ab');
    logger.info('LONGSECRET ab');
    forget();
    logger.info('LONGSECRET');
    expect(text().split('\n').map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['*** ab', 'LONGSECRET']);
  });
});

describe('redactText', () => {
  it('removes the key shape and credential pairs from error messages', () => {
    expect(redactText(`401 for ${API_KEY}`)).toBe('401 for AK_***');
    expect(redactText('GET /x?verificationCode=482913&page=2')).toBe('GET /x?verificationCode=***&page=2');
    expect(redactText('{"card_no":"C-1","card_password":"P-2","units":1}')).toBe('{"card_no":"***","card_password":"***","units":1}');
    expect(redactText('X-Service-Key: AK_0123456789abcdef0123456789abcdef')).not.toContain('0123456789abcdef');
    expect(redactText('authorization: Bearer abc.def')).toBe('authorization: Bearer ***');
    expect(redactText('nothing secret here, code 409101')).toBe('nothing secret here, code 409101');
  });
});
