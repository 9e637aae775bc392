// The core process's log lines (already redacted there, one JSON object each) into the web host's
// logger, at their own level, redacted once more by the host's logger (it knows the demo's key too).
// A line that is not what core writes is kept, as text, rather than lost.
import type { Logger, LogFields } from '../core';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];
const isLevel = (value: unknown): value is Level => LEVELS.some((level) => level === value);
const isFields = (value: unknown): value is LogFields => typeof value === 'object' && value !== null && !Array.isArray(value);

export function relayCoreLogLine(logger: Logger): (line: string) => void {
  return (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = null;
    }
    if (typeof parsed !== 'object' || parsed === null) {
      logger.warn('core process: a log line that is not JSON', { line: line.slice(0, 2_000) });
      return;
    }
    const record = parsed as Record<string, unknown>;
    const level = isLevel(record['level']) ? record['level'] : 'info';
    const message = typeof record['msg'] === 'string' ? record['msg'] : 'core process: a log line without a message';
    const fields = isFields(record['fields']) ? record['fields'] : {};
    logger[level](message, { ...fields, process: 'core' });
  };
}
