// The order dialog's offers (issue 17): when the merchant of a linked variant cannot supply the units
// or asks more than the link's rule allows, the other members of the link with their merchant, price,
// stock and whether they are within the limit. Choosing one moves the dialog to that merchant's
// variant, where the buyer reviews and confirms again at that merchant's price — never placed unasked.
import { Alert, Button, List, Space, Tag, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { offerChoices, type OfferChoice } from '../lib/compare-view';
import { formatFen } from '../lib/money';
import type { Offer, Offers } from '../../../shared/ipc/views/compare';
import { MemberSupplyTag } from './MemberSupplyTag';
import { MerchantName } from './MerchantName';
import { Untranslated, WithMerchantData } from './MerchantText';

type Reason = NonNullable<Offers['reason']>;
const REASON_KEY: Record<Reason, `compare.offers.reason.${Reason}`> = {
  outOfStock: 'compare.offers.reason.outOfStock',
  unavailable: 'compare.offers.reason.unavailable',
  aboveLimit: 'compare.offers.reason.aboveLimit',
  notEnoughStock: 'compare.offers.reason.notEnoughStock',
};

const NOTE_KEY: Record<NonNullable<OfferChoice['note']>, `compare.offers.note.${NonNullable<OfferChoice['note']>}`> = {
  cannotSupply: 'compare.offers.note.cannotSupply',
  noPrice: 'compare.offers.note.noPrice',
  aboveLimit: 'compare.offers.note.aboveLimit',
};

/** The reason in the buyer's words, with the rule's limit when that is the reason. */
export function offerReasonText(t: ReturnType<typeof useI18n>['t'], offers: Offers): string {
  if (offers.reason === null) return '';
  return t(REASON_KEY[offers.reason], { merchant: offers.current.merchant.name, limit: formatFen(offers.link?.rule?.maxUnitPriceFen ?? null) });
}

/** busy: a choice is being carried out (the parked order withdrawn first): no second choice meanwhile. */
export function OrderOffersPanel({ offers, onChoose, busy = false }: { offers: Offers; onChoose: (offer: Offer) => void; busy?: boolean }) {
  const { t } = useI18n();
  const choices = offerChoices(offers);
  // A variant in no link has nothing to offer: the dialog's own supply line says why it cannot be bought.
  if (offers.reason === null || offers.link === null) return null;
  return (
    <div className="order-offers" data-testid="order-offers" data-reason={offers.reason} style={{ marginBottom: 16 }}>
      <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={
          <span data-testid="order-offers-reason">
            <WithMerchantData text={offerReasonText(t, offers)} data={[offers.current.merchant.name]} />
          </span>
        } description={choices.length === 0 ? t('compare.offers.none') : t('compare.offers.intro')} />
      {choices.length > 0 ? (
        <List<OfferChoice>
          size="small"
          bordered
          dataSource={choices}
          renderItem={(choice) => (
            <List.Item
              data-testid="order-offer"
              data-profile={choice.offer.merchant.profileId}
              actions={[
                <Button key="choose" type={choice.choosable && choice.note === null ? 'primary' : 'default'} size="small" disabled={!choice.choosable || busy} loading={busy && choice.choosable} onClick={() => onChoose(choice.offer)} data-testid="order-offer-choose">
                  {t('compare.offers.choose')}
                </Button>,
              ]}
            >
              <Space wrap size={6}>
                <MerchantName merchant={choice.offer.merchant} />
                <Untranslated>{choice.offer.variantTitle ?? choice.offer.productName ?? ''}</Untranslated>
                <Typography.Text strong data-testid="order-offer-price">
                  {formatFen(choice.offer.unitPriceFen)}
                </Typography.Text>
                <MemberSupplyTag member={choice.offer} />
                {choice.offer.withinLimit === true ? <Tag color="green">{t('compare.offers.withinLimit')}</Tag> : null}
                {choice.note !== null ? <Tag color={choice.note === 'aboveLimit' ? 'orange' : 'default'} data-testid="order-offer-note">{t(NOTE_KEY[choice.note])}</Tag> : null}
                {choice.ruleChoice ? <Tag color="blue">{t('compare.offers.ruleChoice')}</Tag> : null}
              </Space>
            </List.Item>
          )}
        />
      ) : null}
    </div>
  );
}
