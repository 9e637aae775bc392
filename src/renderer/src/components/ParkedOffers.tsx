// The offers where the price guard parked an order (issue 24, contract §7.7 and §15.4): unavailable, or
// price_changed above the link's rule, shows the link's other merchants in the same dialog (and in its
// detail). Choosing one withdraws the parked order first (never sent, nothing charged) and only then
// opens the form at that merchant, where its price is confirmed anew.
import { useQueryClient } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { merchantOfOrder } from '../lib/order-merchant';
import { useOffers } from '../queries/compare';
import { useProfiles } from '../queries/profiles';
import { useWithdrawOrder } from '../queries/orders';
import { useUiStore } from '../state/ui-store';
import type { Offer } from '../../../shared/ipc/views/compare';
import type { OrderDetail } from '../../../shared/ipc/views/orders';
import { offerReasonText, OrderOffersPanel } from './OrderOffersPanel';
import { ProblemAlert } from './ProblemAlert';
import { WithMerchantData } from './MerchantText';

/** The guard's parks a buyer can take elsewhere; the merchant holds nothing under these (contract §7.8). */
const PARKED = new Set(['unavailable', 'price_changed']);

export function isParkedForOffers(order: OrderDetail): boolean {
  return order.state === null && PARKED.has(order.intentStatus);
}

export function ParkedOffers({ order, profileId }: { order: OrderDetail; profileId: string | null }) {
  const { t } = useI18n();
  const parked = isParkedForOffers(order) && profileId !== null;
  const offers = useOffers(parked ? { profileId, productRef: order.productRef, variantRef: order.variantRef } : null, order.units);
  const withdraw = useWithdrawOrder(order.clientOrderRef);
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const data = offers.data;
  // Without a reason (a rise within the rule's limit, no link) the park's own panel is the whole answer.
  if (!parked || data === undefined || data.reason === null || data.link === null) return null;
  const merchant = data.current.merchant.name;

  const choose = (offer: Offer): void => {
    const movedFrom = { merchantName: merchant, reason: offerReasonText(t, data) };
    withdraw.mutate(undefined, {
      onSuccess: (result) => {
        // Only an order surely withdrawn is left behind; anything else stays here for the buyer to see.
        if (result.outcome !== 'withdrawn') return;
        openOrderForm({ kind: 'new', productRef: offer.productRef, variantRef: offer.variantRef, profileId: offer.merchant.profileId, unitsText: String(order.units), movedFrom });
      },
    });
  };

  const outcome = withdraw.data?.outcome;
  return (
    <div data-testid="parked-offers" style={{ marginBottom: 12 }}>
      <OrderOffersPanel offers={data} onChoose={choose} busy={withdraw.isPending} />
      <Typography.Paragraph type="secondary" style={{ marginTop: -8 }} data-testid="parked-offers-note">
        <WithMerchantData text={t('compare.parked.note', { merchant })} data={[merchant]} />
      </Typography.Paragraph>
      {outcome !== undefined && outcome !== 'withdrawn' ? (
        <Typography.Paragraph type="warning" data-testid="parked-offers-kept">
          <WithMerchantData text={t('compare.parked.notWithdrawn', { merchant })} data={[merchant]} />
        </Typography.Paragraph>
      ) : null}
      {withdraw.error !== null ? <ProblemAlert explained={explainError(withdraw.error)} /> : null}
    </div>
  );
}

/** In the order's detail: its merchant as the orders list tagged it (the detail does not say); alone, the active one. */
export function ParkedOffersOfOrder({ order }: { order: OrderDetail }) {
  const client = useQueryClient();
  const profiles = useProfiles().data;
  const alone = profiles !== undefined && profiles.profiles.length === 1 ? profiles.activeId : null;
  return <ParkedOffers order={order} profileId={merchantOfOrder(client, order.clientOrderRef) ?? alone} />;
}
