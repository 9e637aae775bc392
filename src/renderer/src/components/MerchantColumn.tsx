// The merchant column and the merchant filter of the lists that span every profile (contract §15.2):
// both appear only when the buyer has more than one merchant (lib/merchant-column.ts).
import { Select, Tag } from 'antd';
import { useState } from 'react';
import type { MerchantTag } from '../../../shared/ipc/views/profiles';
import { useI18n } from '../i18n/use-i18n';
import { profileFilterInput, showsMerchants } from '../lib/merchant-column';
import { useProfiles } from '../queries/profiles';
import { MerchantLabel } from './MerchantName';

export interface MerchantFilter {
  /** Whether the list shows a merchant column and filter at all. */
  readonly shown: boolean;
  readonly chosen: string | null;
  readonly setChosen: (profileId: string | null) => void;
  /** The list's `profile` input. */
  readonly input: { profile?: string };
}

export function useMerchantFilter(): MerchantFilter {
  const profiles = useProfiles();
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = showsMerchants(profiles.data);
  return { shown, chosen, setChosen, input: shown ? profileFilterInput(profiles.data, chosen) : {} };
}

const ALL = '';

export function MerchantFilterSelect({ filter, testId }: { filter: MerchantFilter; testId: string }) {
  const { t } = useI18n();
  const profiles = useProfiles();
  if (!filter.shown) return null;
  return (
    <Select<string>
      data-testid={testId}
      style={{ width: 200 }}
      aria-label={t('profiles.filter')}
      value={filter.input.profile ?? ALL}
      onChange={(value) => filter.setChosen(value === ALL ? null : value)}
      options={[
        { value: ALL, label: t('join.labelValue', { label: t('profiles.filter'), value: t('profiles.filterAll') }) },
        ...(profiles.data?.profiles ?? []).map((profile) => ({
          value: profile.id,
          label: <MerchantLabel merchant={profile} />,
        })),
      ]}
    />
  );
}

/** A row's merchant, as the buyer named it. */
export function MerchantCell({ merchant }: { merchant: MerchantTag | undefined }) {
  if (merchant === undefined) return null;
  return (
    <Tag data-testid="row-merchant" data-profile-id={merchant.profileId}>
      <MerchantLabel merchant={merchant} />
    </Tag>
  );
}

/** The column for an antd table, or none when there is one merchant. */
export function useMerchantColumn<Row extends { merchant?: MerchantTag | undefined }>(shown: boolean) {
  const { t } = useI18n();
  if (!shown) return [];
  return [{ key: 'merchant', title: t('profiles.column'), width: 140, render: (_value: unknown, row: Row) => <MerchantCell merchant={row.merchant} /> }];
}
