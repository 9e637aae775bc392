// One card code: masked until the buyer clicks Reveal (an audited call to main); copy goes through
// main too, which clears the clipboard after 30 s. The plain text lives only in this component's
// state and is dropped on Hide or when the row unmounts.
import { CopyOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { App, Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatSeconds } from '../lib/format-time';
import { useCopyCard, useRevealCard } from '../queries/vault';
import type { MaskedCardView, RevealedCard } from '../../../shared/ipc/views';
import { ProblemAlert } from './ProblemAlert';

export function CardRow({ clientOrderRef, card }: { clientOrderRef: string; card: MaskedCardView }) {
  const { t, locale } = useI18n();
  const { message } = App.useApp();
  const reveal = useRevealCard();
  const copy = useCopyCard();
  const [revealed, setRevealed] = useState<RevealedCard | null>(null);
  const failure = reveal.error ?? copy.error;

  const doCopy = (field: 'cardNo' | 'cardPassword'): void => {
    copy.mutate(
      { clientOrderRef, seq: card.seq, field },
      { onSuccess: (result) => void message.success(t('vault.copied', { seconds: result.clearsInSeconds })) },
    );
  };

  return (
    <div className="card-row" data-testid="vault-card" data-seq={card.seq}>
      <div className="card-row-main">
        <div>
          <Typography.Text type="secondary">{t('vault.cardNo')}: </Typography.Text>
          <Typography.Text code data-testid={revealed === null ? 'vault-card-masked' : 'vault-card-no'}>
            {revealed === null ? card.cardNoMasked : revealed.cardNo}
          </Typography.Text>
        </div>
        <div>
          <Typography.Text type="secondary">{t('vault.password')}: </Typography.Text>
          {card.hasPassword ? (
            <Typography.Text code data-testid={revealed === null ? 'vault-card-password-masked' : 'vault-card-password'}>
              {revealed === null ? '••••••' : (revealed.cardPassword ?? '')}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('vault.noPassword')}</Typography.Text>
          )}
        </div>
        <Space size="small" wrap style={{ marginTop: 4 }}>
          {card.expiresAt !== null ? <Tag>{`${t('vault.expires')} ${formatSeconds(card.expiresAt, locale)}`}</Tag> : null}
          <Tag>{`${t('vault.received')} ${formatSeconds(card.receivedAt, locale)}`}</Tag>
          {card.usedAt !== null ? <Tag color="default">{t('vault.used')}</Tag> : null}
        </Space>
      </div>
      <Space wrap>
        {revealed === null ? (
          <Button
            icon={<EyeOutlined />}
            loading={reveal.isPending}
            data-testid="vault-reveal"
            onClick={() => reveal.mutate({ clientOrderRef, seq: card.seq }, { onSuccess: setRevealed })}
          >
            {t('vault.reveal')}
          </Button>
        ) : (
          <Button icon={<EyeInvisibleOutlined />} data-testid="vault-hide" onClick={() => setRevealed(null)}>
            {t('vault.hide')}
          </Button>
        )}
        <Button icon={<CopyOutlined />} loading={copy.isPending && copy.variables.field === 'cardNo'} data-testid="vault-copy-no" onClick={() => doCopy('cardNo')}>
          {t('vault.copyNo')}
        </Button>
        {card.hasPassword ? (
          <Button icon={<CopyOutlined />} loading={copy.isPending && copy.variables.field === 'cardPassword'} data-testid="vault-copy-password" onClick={() => doCopy('cardPassword')}>
            {t('vault.copyPassword')}
          </Button>
        ) : null}
      </Space>
      {failure !== null ? (
        <div style={{ width: '100%' }}>
          <ProblemAlert explained={explainError(failure)} />
        </div>
      ) : null}
    </div>
  );
}
