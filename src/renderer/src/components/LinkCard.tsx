// One link: its members side by side (merchant, product and variant, price, stock), the cheapest one
// that can be bought marked, ordering from any member (the order dialog at that merchant), unlinking
// a member, and the link's fallback rule.
import { Button, Card, Popconfirm, Space, Table, Tag } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { cheapestMember } from '../lib/compare-view';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useUnlink } from '../queries/compare';
import { useUiStore } from '../state/ui-store';
import type { LinkMember, LinkView } from '../../../shared/ipc/views/compare';
import { FallbackRuleEditor } from './FallbackRuleEditor';
import { MemberSupplyTag } from './MemberSupplyTag';
import { MerchantName } from './MerchantName';
import { Untranslated } from './MerchantText';
import { ProblemAlert } from './ProblemAlert';

const memberKey = (member: LinkMember): string => `${member.merchant.profileId}/${member.productRef}/${member.variantRef}`;

export function LinkCard({ link }: { link: LinkView }) {
  const { t } = useI18n();
  const unlink = useUnlink();
  const openOrderForm = useUiStore((state) => state.openOrderForm);
  const cheapest = cheapestMember(link.members);
  return (
    <Card size="small" className="compare-link" data-testid="link-card" data-link-id={link.linkId} title={t('compare.link.title', { id: String(link.linkId) })}>
      <Table<LinkMember>
        size="small"
        pagination={false}
        rowKey={memberKey}
        dataSource={link.members}
        onRow={(member) => ({ 'data-testid': 'link-member', 'data-profile': member.merchant.profileId } as React.HTMLAttributes<HTMLElement>)}
        columns={[
          { title: t('compare.col.merchant'), key: 'merchant', render: (_, member) => <MerchantName merchant={member.merchant} /> },
          {
            title: t('compare.col.variant'),
            key: 'variant',
            render: (_, member) => (
              <Untranslated>
                {member.productName ?? t('compare.productGone')}
                {member.variantTitle !== null ? ` · ${member.variantTitle}` : ''}
              </Untranslated>
            ),
          },
          {
            title: t('compare.col.price'),
            key: 'price',
            align: 'right',
            render: (_, member) => (
              <Space size={4}>
                <span data-testid="member-price">{formatFen(member.unitPriceFen)}</span>
                {cheapest !== null && memberKey(cheapest) === memberKey(member) ? <Tag color="green" data-testid="member-cheapest">{t('compare.cheapest')}</Tag> : null}
              </Space>
            ),
          },
          { title: t('compare.col.stock'), key: 'stock', render: (_, member) => <MemberSupplyTag member={member} /> },
          {
            title: '',
            key: 'actions',
            align: 'right',
            render: (_, member) => (
              <Space size="small">
                <Button size="small" type="primary" data-testid="member-order" onClick={() => openOrderForm({ kind: 'new', productRef: member.productRef, variantRef: member.variantRef, profileId: member.merchant.profileId })}>
                  {t('compare.order')}
                </Button>
                <Popconfirm title={t('compare.unlinkConfirm')} okText={t('compare.unlink')} cancelText={t('common.cancel')} onConfirm={() => unlink.mutate({ profileId: member.merchant.profileId, productRef: member.productRef, variantRef: member.variantRef })} okButtonProps={{ 'data-testid': 'member-unlink-ok' }}>
                  <Button size="small" danger data-testid="member-unlink">
                    {t('compare.unlink')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {unlink.error !== null ? <ProblemAlert explained={explainError(unlink.error)} /> : null}
      <FallbackRuleEditor key={`${link.linkId}:${link.rule?.maxUnitPriceFen ?? ''}:${link.rule?.preference.join(',') ?? ''}`} link={link} />
    </Card>
  );
}
