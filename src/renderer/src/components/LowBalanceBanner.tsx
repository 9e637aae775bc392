// The banners a crossing of a low-balance line raises (with the desktop notification), one per merchant:
// the active merchant's with its balance now and the line the buyer set, going by itself once the
// balance is back at or above the line; another merchant's naming it, with the balance it reported
// (lib/low-balance-view.ts). Each goes when dismissed. The balances come from core's events in order
// (state/low-balance-store.ts), not from the header's query, which may still hold an older read.
import { Alert } from 'antd';
import { useEffect } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { showsMerchants } from '../lib/merchant-column';
import { lowBalanceViews, type LowBalanceBannerView } from '../lib/low-balance-view';
import { formatFen } from '../lib/money';
import { useProfiles } from '../queries/profiles';
import { useSettings } from '../queries/settings';
import { useLowBalanceStore } from '../state/low-balance-store';
import { useMerchantLabel } from './MerchantName';
import { WithMerchantData } from './MerchantText';

export function LowBalanceBanner() {
  const crossings = useLowBalanceStore((state) => state.crossings);
  const dismiss = useLowBalanceStore((state) => state.dismiss);
  const line = useSettings().data?.lowBalanceFen ?? null;
  const profiles = useProfiles();
  const { shown, recovered } = lowBalanceViews(crossings, profiles.data?.activeId ?? null, line, showsMerchants(profiles.data));
  // After each render: a recovered crossing is dropped (dismissing an absent one changes nothing, so this settles).
  useEffect(() => {
    for (const key of recovered) dismiss(key);
  });
  return (
    <>
      {shown.map((view) => (
        <OneBanner key={view.key} view={view} onClose={() => dismiss(view.key)} />
      ))}
    </>
  );
}

function OneBanner({ view, onClose }: { view: LowBalanceBannerView; onClose: () => void }) {
  const { t } = useI18n();
  const label = useMerchantLabel();
  const balance = formatFen(view.balanceFen);
  const merchant = view.merchant === null ? null : label(view.merchant);
  // The fallback name is ours, in the buyer's language; any other name is data.
  const data = [view.merchant?.nameSource === 'fallback' ? null : merchant];
  const title = merchant === null ? t('lowBalanceBanner.title', { balance }) : t('lowBalanceBanner.titleAt', { merchant, balance });
  const body = view.lineFen !== null ? t('lowBalanceBanner.body', { line: formatFen(view.lineFen) }) : merchant !== null ? t('lowBalanceBanner.bodyAt', { merchant }) : null;
  return (
    <Alert
      type="warning"
      showIcon
      closable={{ onClose }}
      data-testid="low-balance-banner"
      data-profile={view.key}
      style={{ marginBottom: 16 }}
      title={<WithMerchantData text={title} data={data} />}
      description={body === null ? null : <WithMerchantData text={body} data={data} />}
    />
  );
}
