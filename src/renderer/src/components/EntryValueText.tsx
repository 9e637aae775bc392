// One value of an order's entry group as the buyer reads it (contract §7.11): a value picked from the
// template's options by its label; an option no label is known for by its code, marked as the merchant's
// code (an order kept before labels were, whose option the cached template no longer lists); a typed value as typed.
import { Fragment } from 'react';
import type { PickedOption, RechargedEntry } from '../../../shared/ipc/views/orders';
import { useI18n } from '../i18n/use-i18n';
import { Untranslated } from './MerchantText';

export function PickedOptionText({ picked }: { picked: PickedOption }) {
  const { t } = useI18n();
  if (picked.label !== null) return <Untranslated>{picked.label}</Untranslated>;
  const [before = '', after = ''] = t('order.merchantCode', { code: '\u0000' }).split('\u0000');
  return (
    <span data-testid="merchant-code">
      {before}
      <Untranslated kind="technical">{picked.merchantCode ?? ''}</Untranslated>
      {after}
    </span>
  );
}

/** `label: value` (the language's own mark: 充值手机号：…) for each value of a group, joined by ` · `. */
export function EntryGroupText({ group }: { group: readonly RechargedEntry[] }) {
  const { t } = useI18n();
  return (
    <>
      {group.map((entry, index) => (
        <Fragment key={entry.fieldRef}>
          {index > 0 ? ' · ' : null}
          <Untranslated>{t('join.labelValue', { label: entry.label, value: '' })}</Untranslated>
          {entry.picked !== null ? <PickedOptionText picked={entry.picked} /> : <Untranslated kind="buyer">{entry.value}</Untranslated>}
        </Fragment>
      ))}
    </>
  );
}
