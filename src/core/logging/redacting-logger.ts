// A logger that writes one JSON object per line to a sink and removes secrets on the way: the API
// key and the headers holding it, top-up account entries, verification codes and card secrets must
// never appear in a log line or in an error message (interface v1 §5).
import type { LogFields, LogLevel, SecretAwareLogger } from './logger';
import { redactValue } from './redact-value';
import { redactPatterns } from './secret-patterns';
import { SecretRegistry } from './secret-registry';

export type LogSink = (line: string) => void;

export interface RedactingLoggerOptions {
  /** Receives complete lines without the trailing newline. */
  readonly sink: LogSink;
  /** Lines below this level are dropped. Default `info`. */
  readonly level?: LogLevel;
  readonly now?: () => Date;
  /** Fields added to every line of this logger (e.g. `{ component: 'merchant' }`). */
  readonly bindings?: LogFields;
}

const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Redacts free text: the API-key shape, credential pairs (`key=…`, `"card_password":"…"`) and, when
 * given, the registered secrets of a logger. Use it for error messages that leave core.
 */
export function redactText(text: string, secrets?: SecretRegistry): string {
  const withoutSecrets = secrets === undefined ? text : secrets.redact(text);
  return redactPatterns(withoutSecrets);
}

/** A sink over a writable stream, e.g. `process.stderr` or a log file stream. */
export function streamSink(stream: { write(chunk: string): unknown }): LogSink {
  return (line) => {
    stream.write(`${line}\n`);
  };
}

export class RedactingLogger implements SecretAwareLogger {
  private readonly sink: LogSink;
  private readonly level: LogLevel;
  private readonly now: () => Date;
  private readonly bindings: LogFields;

  constructor(
    options: RedactingLoggerOptions,
    /** Shared by child loggers so that a secret registered once is hidden everywhere. */
    private readonly secrets: SecretRegistry = new SecretRegistry(),
  ) {
    this.sink = options.sink;
    this.level = options.level ?? 'info';
    this.now = options.now ?? (() => new Date());
    this.bindings = options.bindings ?? {};
  }

  registerSecret(value: string): () => void {
    return this.secrets.add(value);
  }

  redact(text: string): string {
    return redactText(text, this.secrets);
  }

  /** A logger with more fixed fields, the same sink, level and secrets. */
  child(bindings: LogFields): RedactingLogger {
    return new RedactingLogger({ sink: this.sink, level: this.level, now: this.now, bindings: { ...this.bindings, ...bindings } }, this.secrets);
  }

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  private write(level: LogLevel, message: string, fields: LogFields | undefined): void {
    if (LEVEL_RANK[level] < LEVEL_RANK[this.level]) return;
    // Logging must never break the work being logged, so failures here are swallowed.
    try {
      const text = (t: string): string => this.redact(t);
      const merged = { ...this.bindings, ...fields };
      const line: Record<string, unknown> = { time: this.now().toISOString(), level, msg: text(message) };
      if (Object.keys(merged).length > 0) line.fields = redactValue(merged, text);
      this.sink(JSON.stringify(line));
    } catch {
      // Nothing sensible to do: the sink or the clock failed.
    }
  }
}
