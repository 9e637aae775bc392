// The language of the files a command writes (contract §16.4): `--language zh-CN|en`, Chinese when not
// given, as the app's own default for files. Only files follow it: text and --json output stay English,
// --json with stable keys and values (states and codes as the interface names them) for scripts.
import { EXPORT_LANGUAGES, type ExportLanguage } from '../shared/ipc/views/vault';
import { optionOf, UsageError, type ParsedArgs } from './cli-args';

export const FILE_LANGUAGE_LINE = '--json prints stable English keys and values (states and codes as the interface names them, money in fen) whatever the language; the files a command writes (batch --results, vault export) have headers, statuses and errors in Chinese unless --language en.';

export function fileLanguageOf(args: ParsedArgs): ExportLanguage {
  const word = optionOf(args, 'language') ?? 'zh-CN';
  const language = EXPORT_LANGUAGES.find((l) => l === word);
  if (language === undefined) throw new UsageError(`--language takes ${EXPORT_LANGUAGES.join(' or ')}`);
  return language;
}
