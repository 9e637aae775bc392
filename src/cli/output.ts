// What the CLI prints: results on stdout (JSON for scripts), progress and errors on stderr.
import { fenToYuanText } from '../shared/money';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}

export function progress(text: string): void {
  process.stderr.write(`${text}\n`);
}

export function yuan(fen: number | null): string | null {
  return fen === null ? null : fenToYuanText(fen);
}
