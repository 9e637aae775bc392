// The connection state machine's rules (contract §2.4), for any sequence of merchant answers: the
// state is the one the rules name, a refusal is never followed by "online" without an account answer
// that lifts it, a refused key (401) only by a new machine, and only transitions are pushed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createConnectionStateMachine,
  holdsBackWork,
  initialConnectionState,
  isAnswering,
  nextConnectionState,
  type MerchantObservation,
} from '../../../src/core/connection/connection-state';
import { createReachProbe } from '../../../src/core/connection/reach-probe';
import type { ConnectionStateName, ConnectionStateView } from '../../../src/shared/ipc/views/connection';
import { TRANSPORT_REASONS } from '../../../src/shared/transport-reasons';
import type { Clock } from '../../../src/core/platform/clock';

const ok: MerchantObservation = { kind: 'answered', httpStatus: 200, code: 0, requestId: 'r-ok', retryAtMs: null };
const answer = (httpStatus: number, code: number, retryAtMs: number | null = null): MerchantObservation => ({ kind: 'answered', httpStatus, code, requestId: `r-${code}`, retryAtMs });
const transport = (reason: (typeof TRANSPORT_REASONS)[number], connected = false): MerchantObservation => ({ kind: 'transport', reason, connected, requestId: null });
const account = (accessState: string): MerchantObservation => ({ kind: 'account', accessState, requestId: 'r-acc' });
const slowOk = (slowMs: number): MerchantObservation => ({ kind: 'answered', httpStatus: 200, code: 0, requestId: 'r-slow', retryAtMs: null, slowMs });
const slowAnswer = (httpStatus: number, code: number, slowMs: number): MerchantObservation => ({ kind: 'answered', httpStatus, code, requestId: `r-${code}`, retryAtMs: null, slowMs });
const slowAccount = (slowMs: number): MerchantObservation => ({ kind: 'account', accessState: 'active', requestId: 'r-slow-acc', slowMs });
const pending = (elapsedMs: number): MerchantObservation => ({ kind: 'pending', elapsedMs });

/** A clock that moves only when told (nothing here sleeps). */
function manualClock(startMs: number): Clock & { advance(ms: number): void } {
  let now = startMs;
  return { nowMs: () => now, sleep: () => Promise.resolve(), advance: (ms) => void (now += ms) };
}

function run(observations: readonly MerchantObservation[], start: ConnectionStateView = initialConnectionState()): ConnectionStateView {
  return observations.reduce((view, observation, index) => nextConnectionState(view, observation, 1_700_000_000_000 + index * 1000), start);
}

describe('connection state: single answers', () => {
  const cases: Array<[string, MerchantObservation, ConnectionStateName]> = [
    ['a success', ok, 'online'],
    ['a business refusal of one request (402001 balance)', answer(402, 402001), 'online'],
    ['one order’s cooldown (429110)', answer(429, 429110), 'online'],
    ['the quota (429001)', answer(429, 429001, 5_000), 'degraded'],
    ['503', answer(503, 503001), 'degraded'],
    ['500', answer(500, 500001), 'degraded'],
    ['a timeout', transport('timeout', true), 'degraded'],
    ['a reset after connecting', transport('reset', true), 'degraded'],
    ['a reset before any connection', transport('reset', false), 'offline'],
    ['DNS', transport('dns'), 'offline'],
    ['refused', transport('refused'), 'offline'],
    ['unreachable', transport('unreachable'), 'offline'],
    ['an untrusted certificate', transport('tlsUntrusted'), 'certificate'],
    ['a certificate for another host', transport('tlsHostname'), 'certificate'],
    ['an expired certificate', transport('tlsExpired'), 'certificate'],
    ['401', answer(401, 401001), 'keyRefused'],
    ['403005', answer(403, 403005), 'suspended'],
    ['403002', answer(403, 403002), 'ipDenied'],
    ['GET /account suspended', account('suspended'), 'suspended'],
    ['GET /account active', account('active'), 'online'],
    ['an HTML 502 page', { kind: 'malformed', httpStatus: 502, requestId: null }, 'degraded'],
    ['a success that took 10 s', slowOk(10_000), 'degraded'],
    ['a business refusal that took 4 s', slowAnswer(402, 402001, 4_000), 'degraded'],
    ['GET /account active after 10 s', slowAccount(10_000), 'degraded'],
    ['GET /account suspended after 10 s', { kind: 'account', accessState: 'suspended', requestId: null, slowMs: 10_000 }, 'suspended'],
    ['a request still unanswered after 3 s', pending(3_000), 'degraded'],
  ];
  for (const [name, observation, expected] of cases) {
    it(`${name} → ${expected}`, () => {
      expect(run([observation]).state).toBe(expected);
    });
  }

  it('keeps what explains the state: code, status, requestId, Retry-After, and the last success', () => {
    const view = run([ok, answer(503, 503001, 1_700_000_009_000)]);
    expect(view).toMatchObject({ state: 'degraded', merchantCode: 503001, httpStatus: 503, requestId: 'r-503001', retryAtMs: 1_700_000_009_000, lastSuccessAt: 1_700_000_000 });
    expect(run([transport('tlsExpired')])).toMatchObject({ state: 'certificate', transportReason: 'tlsExpired', httpStatus: null });
  });

  it('a malformed answer below 500 changes nothing', () => {
    expect(run([transport('dns'), { kind: 'malformed', httpStatus: 200, requestId: null }]).state).toBe('offline');
  });
});

describe('connection state: slow answers (contract §8.3)', () => {
  it('a slow answer is degraded with slowMs; work is not held back for it, as it is for errors and outages', () => {
    const slow = run([ok, slowOk(10_012)]);
    expect(slow).toMatchObject({ state: 'degraded', slowMs: 10_012, requestId: 'r-slow', merchantCode: null, httpStatus: null, lastSuccessAt: 1_700_000_001 });
    expect(holdsBackWork(slow)).toBe(false);
    expect(isAnswering(slow)).toBe(true);
    for (const failing of [answer(503, 503001), transport('timeout', true), transport('refused'), transport('tlsExpired')]) {
      const view = run([failing]);
      expect(view.slowMs).toBeNull();
      expect(holdsBackWork(view)).toBe(true);
      expect(isAnswering(view)).toBe(false);
    }
    // A slow 503 is a 503: errors hold work back whatever their speed.
    expect(holdsBackWork(run([slowAnswer(503, 503001, 9_000)]))).toBe(true);
  });

  it('one fast answer after slow ones is online again; a still-awaited request keeps the longest wait seen', () => {
    expect(run([slowOk(10_000), ok])).toMatchObject({ state: 'online', slowMs: null });
    expect(run([slowAccount(10_000), account('active')]).state).toBe('online');
    expect(run([pending(3_000)])).toMatchObject({ state: 'degraded', slowMs: 3_000, requestId: null });
    expect(run([slowOk(10_000), pending(3_000)]).slowMs).toBe(10_000);
    expect(run([pending(3_000), slowOk(10_000)]).slowMs).toBe(10_000);
  });

  it('a request still waiting does not hide an outage, an error or a refusal', () => {
    for (const before of [transport('refused'), transport('tlsUntrusted'), answer(503, 503001), transport('timeout', true), answer(403, 403005), answer(401, 401001)]) {
      const view = run([before]);
      expect(run([before, pending(3_000)])).toEqual(view);
    }
  });

  it('a slow GET /account lifts a suspension, into "answering slowly"', () => {
    expect(run([answer(403, 403005), slowAccount(6_000)])).toMatchObject({ state: 'degraded', slowMs: 6_000 });
    expect(run([answer(401, 401001), slowAccount(6_000)]).state).toBe('keyRefused');
  });

  it('pushes a slow state once, and again only when the whole seconds of the wait change', () => {
    const clock = manualClock(1_700_000_000_000);
    const machine = createConnectionStateMachine(clock);
    const seen: Array<number | null> = [];
    machine.onChange((view) => seen.push(view.slowMs));
    expect(machine.lastObservedAtMs()).toBeNull();
    for (const observation of [pending(3_000), slowOk(3_400), slowOk(10_020), slowOk(10_700), ok]) {
      clock.advance(500);
      machine.observe(observation);
    }
    expect(seen).toEqual([3_000, 10_020, null]);
    expect(machine.lastObservedAtMs()).toBe(clock.nowMs());
  });
});

const pendingArb: fc.Arbitrary<MerchantObservation> = fc.integer({ min: 3_000, max: 20_000 }).map(pending);

describe('connection state: slowness in any sequence', () => {
  it('a still-awaited request changes the state only from online or slow, and then to slow', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(observationArbWithSlow(), pendingArb), { maxLength: 40 }), (observations) => {
        let view = initialConnectionState();
        observations.forEach((observation, index) => {
          const next = nextConnectionState(view, observation, 1_700_000_000_000 + index * 1000);
          if (observation.kind === 'pending') {
            if (isAnswering(view)) expect(next).toMatchObject({ state: 'degraded', slowMs: Math.max(observation.elapsedMs, view.slowMs ?? 0) });
            else expect(next).toEqual(view);
          }
          // slowMs is set only while degraded, and then work goes on.
          if (next.slowMs !== null) {
            expect(next.state).toBe('degraded');
            expect(holdsBackWork(next)).toBe(false);
          }
          view = next;
        });
      }),
    );
  });
});

describe('connection state: refusals outrank the rest', () => {
  it('a success of another request does not lift a suspension; GET /account active does', () => {
    expect(run([answer(403, 403005), ok, answer(503, 503001), transport('dns')]).state).toBe('suspended');
    expect(run([answer(403, 403005), account('active')]).state).toBe('online');
    expect(run([answer(403, 403002), account('active')]).state).toBe('online');
  });

  it('a 401 outranks a later 403 and is lifted by nothing but a new key', () => {
    expect(run([answer(401, 401001), answer(403, 403005), account('active'), ok]).state).toBe('keyRefused');
    expect(run([answer(403, 403005), answer(401, 401001)]).state).toBe('keyRefused');
  });

  it('an IP refusal after a suspension says the newer refusal', () => {
    expect(run([answer(403, 403005), answer(403, 403002)]).state).toBe('ipDenied');
  });
});

const observationArb: fc.Arbitrary<MerchantObservation> = fc.oneof(
  fc.constant(ok),
  fc.constantFrom(answer(402, 402001), answer(409, 409001), answer(429, 429001, 1_700_000_100_000), answer(429, 429111), answer(500, 500001), answer(503, 503001)),
  fc.constantFrom(answer(401, 401001), answer(403, 403005), answer(403, 403002), answer(403, 403999)),
  fc.constantFrom(...TRANSPORT_REASONS).chain((reason) => fc.boolean().map((connected) => transport(reason, connected))),
  fc.constantFrom(account('active'), account('suspended'), account('frozen')),
  fc.integer({ min: 200, max: 599 }).map((httpStatus): MerchantObservation => ({ kind: 'malformed', httpStatus, requestId: null })),
);

/** The answers above, and each success also as a slow one (slow answers are told by their own answer alone). */
function observationArbWithSlow(): fc.Arbitrary<MerchantObservation> {
  return fc.oneof(observationArb, fc.integer({ min: 3_001, max: 14_000 }).chain((slowMs) => fc.constantFrom(slowOk(slowMs), slowAccount(slowMs), slowAnswer(402, 402001, slowMs))));
}

describe('connection state: any sequence of answers', () => {
  it('is never online after a refusal unless GET /account answered since (and never after a 401)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(observationArbWithSlow(), pendingArb), { maxLength: 40 }), (observations) => {
        let refusedAt = -1;
        let keyRefusedAt = -1;
        let view = initialConnectionState();
        observations.forEach((observation, index) => {
          view = nextConnectionState(view, observation, 1_700_000_000_000 + index);
          if (observation.kind === 'answered' && (observation.httpStatus === 401 || observation.httpStatus === 403)) refusedAt = index;
          if (observation.kind === 'answered' && observation.httpStatus === 401) keyRefusedAt = index;
          if (keyRefusedAt >= 0) expect(view.state).toBe('keyRefused');
          if (refusedAt >= 0 && view.state === 'online') {
            const lifted = observations.slice(refusedAt + 1, index + 1).some((o) => o.kind === 'account');
            expect(lifted).toBe(true);
          }
        });
      }),
    );
  });

  it('without refusals, the state is the one the latest telling answer names', () => {
    const noRefusal = observationArbWithSlow().filter((o) => !(o.kind === 'answered' && (o.httpStatus === 401 || o.httpStatus === 403)) && !(o.kind === 'account' && o.accessState === 'suspended'));
    fc.assert(
      fc.property(fc.array(noRefusal, { minLength: 1, maxLength: 30 }), (observations) => {
        const telling = observations.filter((o) => !(o.kind === 'malformed' && o.httpStatus < 500));
        const view = run(observations);
        const last = telling.at(-1);
        // Nothing telling: the state before anything was asked.
        expect(view.state).toBe(last === undefined ? 'online' : run([last]).state);
      }),
    );
  });

  it('lastSuccessAt never goes back and is set by every success', () => {
    fc.assert(
      fc.property(fc.array(observationArb, { maxLength: 30 }), (observations) => {
        let view = initialConnectionState();
        observations.forEach((observation, index) => {
          const before = view.lastSuccessAt ?? 0;
          view = nextConnectionState(view, observation, 1_700_000_000_000 + index * 1000);
          expect(view.lastSuccessAt ?? 0).toBeGreaterThanOrEqual(before);
          if (observation === ok || observation.kind === 'account') expect(view.lastSuccessAt).toBe(1_700_000_000 + index);
        });
      }),
    );
  });
});

describe('connection state machine', () => {
  it('tells listeners of transitions only, not of every request', () => {
    const clock = manualClock(1_700_000_000_000);
    const machine = createConnectionStateMachine(clock);
    const seen: string[] = [];
    machine.onChange((view) => seen.push(view.state));
    for (const observation of [ok, ok, answer(503, 503001), answer(503, 503001), ok, answer(402, 402001), transport('dns'), transport('refused'), ok]) machine.observe(observation);
    expect(seen).toEqual(['degraded', 'online', 'offline', 'offline', 'online']);
    // dns then refused: the same state, a different reason, so the words change and it is pushed.
  });

  it('the reach probe is due after a backoff, waits for a Retry-After, and stops once online', async () => {
    const clock = manualClock(1_700_000_000_000);
    const machine = createConnectionStateMachine(clock);
    const probe = createReachProbe(machine, clock, { baseMs: 1_000, maxMs: 8_000 });
    expect(probe.nextProbeAtMs()).toBeNull();
    machine.observe(transport('refused'));
    const first = probe.nextProbeAtMs();
    expect(first).not.toBeNull();
    let probes = 0;
    await probe.probeIfDue(() => Promise.resolve(probes++));
    expect(probes).toBe(0);
    clock.advance(1_000);
    await probe.probeIfDue(() => {
      probes++;
      machine.observe(transport('refused'));
      return Promise.resolve();
    });
    expect(probes).toBe(1);
    expect(probe.nextProbeAtMs()).toBeGreaterThan(clock.nowMs());
    machine.observe(answer(503, 503001, clock.nowMs() + 30_000));
    expect(probe.nextProbeAtMs()).toBeGreaterThanOrEqual(clock.nowMs() + 30_000);
    machine.observe(ok);
    expect(probe.nextProbeAtMs()).toBeNull();
  });
});
