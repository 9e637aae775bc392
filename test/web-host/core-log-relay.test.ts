// The core process's log lines reach the web host's logger at their own level with their fields, are
// redacted once more there (the host knows keys the core process may not have registered), and a line
// that is not core's JSON is kept as text rather than lost.
import { describe, expect, it } from 'vitest';
import { RedactingLogger } from '../../src/core/logging/redacting-logger';
import { relayCoreLogLine } from '../../src/web-host/core-log-relay';

describe('core log relay', () => {
  it('keeps level, message and fields, marks the process, and redacts again', () => {
    const lines: string[] = [];
    const logger = new RedactingLogger({ sink: (line) => lines.push(line), level: 'info' });
    logger.registerSecret('AK_hostKnowsThisKey123');
    const relay = relayCoreLogLine(logger);
    relay(JSON.stringify({ time: '2026-01-01T00:00:00.000Z', level: 'warn', msg: 'order sent', fields: { clientOrderRef: 'PD_1', note: 'key AK_hostKnowsThisKey123' } }));
    relay(JSON.stringify({ time: '2026-01-01T00:00:00.000Z', level: 'debug', msg: 'below the host level' }));
    relay('not json at all');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0] ?? '{}') as { level: string; msg: string; fields: Record<string, unknown> };
    expect(first).toMatchObject({ level: 'warn', msg: 'order sent', fields: { clientOrderRef: 'PD_1', process: 'core' } });
    expect(lines[0]).not.toContain('AK_hostKnowsThisKey123');
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ level: 'warn', msg: 'core process: a log line that is not JSON', fields: { line: 'not json at all' } });
  });
});
