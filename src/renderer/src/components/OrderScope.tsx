// Which merchant the order dialog orders from (issue 17): the active profile unless the form names
// another (a link member's Order, or an offer the buyer chose). Shown when there are several
// merchants; after a move, the dialog says where it came from and that the new price needs a new
// confirmation. The offers of a linked variant are asked for with the units the box holds now.
import { Alert, Space, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useOffers } from '../queries/compare';
import { useProfiles } from '../queries/profiles';
import { useUiStore, type OrderFormTarget } from '../state/ui-store';
import type { Offer, VariantKey } from '../../../shared/ipc/views/compare';
import { offerReasonText } from './OrderOffersPanel';
import { MerchantName } from './MerchantName';
import { WithMerchantData } from './MerchantText';

export interface OrderScopeFacts {
  /** The variant as a link knows it, or null while the profiles are not known. */
  readonly key: VariantKey | null;
  /** The order goes to the active profile: the header's account is its balance (else that merchant's is asked). */
  readonly atActiveProfile: boolean;
  readonly merchant: { readonly profileId: string; readonly name: string } | null;
  readonly severalMerchants: boolean;
}

export function useOrderScope(target: OrderFormTarget): OrderScopeFacts {
  const profiles = useProfiles();
  const activeId = profiles.data?.activeId ?? null;
  const profileId = target.profileId ?? activeId;
  const profile = profiles.data?.profiles.find((entry) => entry.id === profileId) ?? null;
  return {
    key: profileId === null ? null : { profileId, productRef: target.productRef, variantRef: target.variantRef },
    atActiveProfile: target.profileId === undefined || target.profileId === activeId,
    merchant: profile === null ? null : { profileId: profile.id, name: profile.name },
    severalMerchants: (profiles.data?.profiles.length ?? 0) > 1,
  };
}

/**
 * Offers only for a new order (a confirmation of a queued one stays with its merchant). Choosing one
 * opens the form at that merchant's variant with the units typed here and the reason it moved: a new
 * form, its own template and price, and a new review before anything is sent.
 */
export function useDialogOffers(target: OrderFormTarget, scope: OrderScopeFacts, units: number | null, unitsText: string | null) {
  const { t } = useI18n();
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const offers = useOffers(target.kind === 'new' ? scope.key : null, units);
  const choose = (offer: Offer): void => {
    if (offers.data === undefined) return;
    openOrderForm({
      kind: 'new',
      productRef: offer.productRef,
      variantRef: offer.variantRef,
      profileId: offer.merchant.profileId,
      ...(unitsText === null ? {} : { unitsText }),
      movedFrom: { merchantName: offers.data.current.merchant.name, reason: offerReasonText(t, offers.data) },
    });
  };
  return { offers, choose };
}

export function OrderScopeNotes({ target, scope }: { target: OrderFormTarget; scope: OrderScopeFacts }) {
  const { t } = useI18n();
  return (
    <>
      {target.movedFrom !== undefined && scope.merchant !== null ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="order-moved"
          title={<WithMerchantData text={t('compare.moved.title', { from: target.movedFrom.merchantName, to: scope.merchant.name })} data={[target.movedFrom.merchantName, scope.merchant.name]} />}
          description={
            <>
              <div>
                <WithMerchantData text={target.movedFrom.reason} data={[target.movedFrom.merchantName]} />
              </div>
              <div>{t('compare.moved.body')}</div>
            </>
          }
        />
      ) : null}
      {scope.severalMerchants && scope.merchant !== null ? (
        <Space style={{ marginBottom: 12 }} data-testid="order-merchant" data-profile={scope.merchant.profileId}>
          <Typography.Text type="secondary">{t('compare.orderAt')}</Typography.Text>
          <MerchantName merchant={scope.merchant} />
        </Space>
      ) : null}
    </>
  );
}
