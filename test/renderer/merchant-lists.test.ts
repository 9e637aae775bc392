// The cross-profile lists in the renderer: the merchant column and filter only with several merchants,
// the audit log's cursor per merchant, and the merchant-name field's rules.
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/ipc/views/audit';
import type { ProfileList, ProfileView } from '../../src/shared/ipc/views/profiles';
import { IpcCallError } from '../../src/shared/ipc/ipc-result';
import { auditCursorInput, FIRST_AUDIT_PAGE, nextAuditCursor } from '../../src/renderer/src/lib/audit-cursor';
import { profileFilterInput, showsMerchants } from '../../src/renderer/src/lib/merchant-column';
import { nameFieldProblem, nameProblemOfError } from '../../src/renderer/src/lib/profile-name-form';
import { mixesMerchants } from '../../src/renderer/src/lib/vault-selection';

const profile = (id: string, name: string): ProfileView => ({
  id,
  name,
  active: id === 'p1',
  connected: true,
  baseUrl: null,
  userId: null,
  demo: false,
  state: { state: 'online', since: null, lastSuccessAt: null, merchantCode: null, requestId: null, httpStatus: null, transportReason: null, retryAtMs: null, slowMs: null },
});
const list = (...profiles: ProfileView[]): ProfileList => ({ activeId: 'p1', profiles });

describe('merchant column and filter', () => {
  it('appear only with more than one merchant', () => {
    expect(showsMerchants(undefined)).toBe(false);
    expect(showsMerchants(list(profile('p1', 'A')))).toBe(false);
    expect(showsMerchants(list(profile('p1', 'A'), profile('p2', 'B')))).toBe(true);
  });

  it('filter by a profile that exists; every merchant otherwise (none chosen, or one removed since)', () => {
    const two = list(profile('p1', 'A'), profile('p2', 'B'));
    expect(profileFilterInput(two, 'p2')).toEqual({ profile: 'p2' });
    expect(profileFilterInput(two, null)).toEqual({});
    expect(profileFilterInput(two, 'p3')).toEqual({});
    expect(profileFilterInput(undefined, 'p2')).toEqual({});
  });
});

const entry = (id: number, profileId: string | null, at: number): AuditEntry => ({
  id,
  at,
  action: 'reveal',
  subject: 'x',
  cardCount: 1,
  format: null,
  detail: null,
  facts: null,
  ...(profileId === null ? {} : { merchant: { profileId, name: profileId } }),
});

describe('audit cursor across merchants', () => {
  it('keeps the lowest id seen per merchant, and a merchant absent from the last page keeps its cursor', () => {
    const first = nextAuditCursor([entry(90, 'p1', 10), entry(40, 'p2', 9), entry(89, 'p1', 8)], FIRST_AUDIT_PAGE, 3);
    expect(first).toEqual({ beforeIds: { p1: 89, p2: 40 } });
    const second = nextAuditCursor([entry(88, 'p1', 7), entry(87, 'p1', 6), entry(86, 'p1', 5)], first ?? FIRST_AUDIT_PAGE, 3);
    // p2 had nothing on this page: its cursor stays at 40, not reset (which would repeat its rows).
    expect(second).toEqual({ beforeIds: { p1: 86, p2: 40 } });
    expect(auditCursorInput(second ?? FIRST_AUDIT_PAGE)).toEqual({ beforeIds: { p1: 86, p2: 40 } });
  });

  it('a short page is the end; the first page sends no cursor; rows without a merchant page by beforeId', () => {
    expect(nextAuditCursor([entry(5, 'p1', 1)], FIRST_AUDIT_PAGE, 3)).toBeNull();
    expect(nextAuditCursor([], FIRST_AUDIT_PAGE, 3)).toBeNull();
    expect(auditCursorInput(FIRST_AUDIT_PAGE)).toEqual({});
    const legacy = nextAuditCursor([entry(9, null, 3), entry(8, null, 2)], FIRST_AUDIT_PAGE, 2);
    expect(legacy).toEqual({ beforeIds: {}, beforeId: 8 });
    expect(auditCursorInput(legacy ?? FIRST_AUDIT_PAGE)).toEqual({ beforeId: 8 });
  });
});

describe('merchant name field', () => {
  const two = [profile('p1', 'Game Cards'), profile('p2', '卡券批发')];
  it('follows the shared rules and refuses a name another merchant has, regardless of case and spaces', () => {
    expect(nameFieldProblem('', two)).toBe('empty');
    expect(nameFieldProblem('   ', two)).toBe('empty');
    expect(nameFieldProblem('x'.repeat(41), two)).toBe('tooLong');
    expect(nameFieldProblem('a/b', two)).toBe('badCharacters');
    expect(nameFieldProblem(' game  cards ', two)).toBe('taken');
    expect(nameFieldProblem('卡券批发', two)).toBe('taken');
    expect(nameFieldProblem('Phone top-ups', two)).toBeNull();
  });

  it('renaming keeps its own name (another capitalisation too) allowed', () => {
    expect(nameFieldProblem('GAME CARDS', two, 'p1')).toBeNull();
    expect(nameFieldProblem('GAME CARDS', two, 'p2')).toBe('taken');
  });

  it('reads core’s refusal of a name as the same problem, and nothing else as one', () => {
    expect(nameProblemOfError(new IpcCallError({ code: 'INVALID_INPUT', message: 'x', fields: [{ path: 'name', message: 'taken' }] }))).toBe('taken');
    expect(nameProblemOfError(new IpcCallError({ code: 'INVALID_INPUT', message: 'x', fields: [{ path: 'name', message: 'whatever' }] }))).toBeNull();
    expect(nameProblemOfError(new IpcCallError({ code: 'INTERNAL', message: 'x' }))).toBeNull();
    expect(nameProblemOfError(new Error('taken'))).toBeNull();
  });
});

describe('vault selection across merchants', () => {
  it('is mixed only when the chosen cards belong to two merchants', () => {
    const of = (profileId?: string) => (profileId === undefined ? {} : { merchant: { profileId, name: profileId } });
    expect(mixesMerchants([])).toBe(false);
    expect(mixesMerchants([of('p1'), of('p1')])).toBe(false);
    expect(mixesMerchants([of(), of()])).toBe(false);
    expect(mixesMerchants([of('p1'), of('p2')])).toBe(true);
  });
});
