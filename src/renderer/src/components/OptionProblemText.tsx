// An option value that names no option, or several, in the buyer's words (lib/option-problem-words.ts),
// the merchant's field and labels and the buyer's value shown as they are (untranslated).
import { useI18n } from '../i18n/use-i18n';
import { optionProblemParts, type OptionProblem } from '../lib/option-problem-words';
import { Untranslated } from './MerchantText';

export function OptionProblemText({ problem }: { problem: OptionProblem }) {
  const { t, locale } = useI18n();
  return (
    <>
      {optionProblemParts(t, locale, problem).map((part, index) =>
        part.untranslated === null ? (
          <span key={index}>{part.text}</span>
        ) : (
          <Untranslated key={index} kind={part.untranslated}>
            {part.text}
          </Untranslated>
        ),
      )}
    </>
  );
}
