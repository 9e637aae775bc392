// One case: its facts (order, problem, description and images, state), the chat in the merchant's
// order with our not-yet-accepted messages after it, each with its delivery, and the composer. While
// it is open everything shown counts as read (marked again when a new reply comes in). "Refresh"
// reads the case from the merchant now; otherwise webhooks or the low-frequency poll bring changes.
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Empty, Space, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { CaseComposer } from '../components/CaseComposer';
import { CaseImages } from '../components/CaseImages';
import { CaseMessageItem } from '../components/CaseMessageItem';
import { CaseStatusTag } from '../components/CaseStatusTag';
import { ProblemAlert } from '../components/ProblemAlert';
import { useReturnFocus } from '../lib/use-return-focus';
import { useI18n } from '../i18n/use-i18n';
import { categoryLabel } from '../lib/case-status';
import { explainError } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { useCase, useMarkCaseRead, useRefreshCase } from '../queries/aftersales';
import { useAftersaleStore } from '../state/aftersale-store';
import { useUiStore } from '../state/ui-store';
import '../aftersales.css';
import { Untranslated, WithMerchantData } from '../components/MerchantText';

export function CaseChatDrawer() {
  const i18n = useI18n();
  const { t, locale } = i18n;
  const caseRef = useAftersaleStore((state) => state.caseRef);
  const openCase = useAftersaleStore((state) => state.openCase);
  const openOrder = useUiStore((state) => state.openOrder);
  const detail = useCase(caseRef);
  const refresh = useRefreshCase();
  const markRead = useMarkCaseRead();
  const data = detail.data;
  const bottom = useRef<HTMLDivElement | null>(null);
  const unread = data?.unread ?? 0;
  const count = data?.messages.length ?? 0;
  const { mutate: markCaseRead, isPending: marking } = markRead;
  useReturnFocus(caseRef !== null);

  // The buyer is looking at it: what is shown is read.
  useEffect(() => {
    if (caseRef !== null && unread > 0 && !marking) markCaseRead(caseRef);
  }, [caseRef, unread, marking, markCaseRead]);

  // The newest message in view.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [count]);

  return (
    <Drawer
      open={caseRef !== null}
      size={680}
      onClose={() => openCase(null)}
      title={
        <WithMerchantData
          text={data === undefined ? t('aftersale.chat.title', { ref: caseRef ?? '' }) : t('aftersale.chat.titleWithOrder', { ref: data.platformCaseRef, order: data.platformOrderRef })}
          data={[caseRef, data?.platformOrderRef]}
        />
      }
      data-testid="case-chat"
      destroyOnHidden
      extra={
        <Button icon={<ReloadOutlined />} loading={refresh.isPending} onClick={() => caseRef !== null && refresh.mutate(caseRef)} data-testid="case-refresh">
          {t('aftersale.chat.refresh')}
        </Button>
      }
      footer={data !== undefined ? <CaseComposer key={data.platformCaseRef} detail={data} /> : null}
    >
      {detail.error !== null ? <ProblemAlert explained={explainError(detail.error)} /> : null}
      {refresh.error !== null ? <ProblemAlert explained={explainError(refresh.error)} testId="case-refresh-error" /> : null}
      {data !== undefined ? (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('aftersale.col.case')}>
              <Typography.Text copyable data-testid="case-ref">
                <Untranslated>{data.platformCaseRef}</Untranslated>
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.status')}>
              <CaseStatusTag state={data.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('aftersale.chat.order')}>
              <Space>
                <span data-testid="case-order-number" translate="no" data-untranslated="merchant">
                  {`${data.productName ?? ''} ${data.platformOrderRef}`.trim()}
                </span>
                <Button
                  size="small"
                  type="link"
                  data-testid="case-view-order"
                  onClick={() => {
                    openCase(null);
                    openOrder(data.clientOrderRef);
                  }}
                >
                  {t('aftersale.chat.viewOrder')}
                </Button>
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('aftersale.chat.category')}>{categoryLabel(data.category, i18n)}</Descriptions.Item>
            <Descriptions.Item label={t('aftersale.chat.description')}>
              <div className="case-message-text" data-testid="case-description">
                <Untranslated kind="buyer">{data.description}</Untranslated>
              </div>
              <CaseImages urls={data.images} />
            </Descriptions.Item>
            <Descriptions.Item label={t('aftersale.chat.opened')}>{formatSeconds(data.createdAt, locale)}</Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('aftersale.chat.fetchedAt', { time: formatSeconds(data.fetchedAt, locale) })}
          </Typography.Text>
          {data.messages.length === 0 ? (
            <Empty description={t('aftersale.chat.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <div className="case-chat-messages" data-testid="case-messages">
              {data.messages.map((message) => (
                <CaseMessageItem key={message.key} message={message} />
              ))}
            </div>
          )}
          <div ref={bottom} />
        </Space>
      ) : null}
    </Drawer>
  );
}
