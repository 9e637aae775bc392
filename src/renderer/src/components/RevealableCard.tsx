// One card's number and password in the vault table: masked until the buyer clicks Reveal (an
// audited call to main); copies go through main, which clears the clipboard after 30 s. The plain
// text lives only in this cell's state and is dropped on Hide, on another page, or when it unmounts.
// A card of a refunded or cancelled order asks first, naming the refund; only a "go on" sends the
// acknowledgement core requires (and records in the audit log).
import { CopyOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Untranslated } from './MerchantText';
import { App, Button, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import type { RevealedCard } from '../../../shared/ipc/views/vault';
import type { VaultCardRow } from '../../../shared/ipc/views/vault';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useCopyCard, useRevealCard } from '../queries/vault';
import { ProblemAlert } from './ProblemAlert';

export function RevealableCard({ card }: { card: VaultCardRow }) {
  const { t } = useI18n();
  const { message, modal } = App.useApp();
  const reveal = useRevealCard();
  const copy = useCopyCard();
  const [revealed, setRevealed] = useState<RevealedCard | null>(null);
  const failure = reveal.error ?? copy.error;
  const ref = { clientOrderRef: card.clientOrderRef, seq: card.seq };
  const mark = card.refundMark;

  /** Runs `go` at once for a valid card; for a marked one, only after the buyer confirms. */
  const askFirst = (go: (acknowledgement: { acknowledgeRefunded?: true }) => void): void => {
    if (mark === null) {
      go({});
      return;
    }
    void modal.confirm({
      title: t('vault.refundConfirm.title', { mark: t(`vaultList.markWord.${mark}`) }),
      content: t('vault.refundConfirm.body', { ref: card.platformOrderRef ?? t('vaultList.unnumbered', { product: card.productName ?? `#${card.productRef}` }) }),
      okText: t('vault.refundConfirm.ok'),
      cancelText: t('vault.refundConfirm.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'vault-refund-confirm-ok' },
      cancelButtonProps: { 'data-testid': 'vault-refund-confirm-cancel' },
      onOk: () => go({ acknowledgeRefunded: true }),
    });
  };

  const doCopy = (field: 'cardNo' | 'cardPassword'): void => {
    askFirst((ack) => copy.mutate({ ...ref, field, ...ack }, { onSuccess: (result) => void message.success(t('vault.copied', { seconds: result.clearsInSeconds })) }));
  };

  return (
    <div className="vault-card-cell">
      <div className="vault-card-line">
        <Typography.Text code data-testid={revealed === null ? 'vault-card-masked' : 'vault-card-no'}>
          <Untranslated>{revealed === null ? card.cardNoMasked : revealed.cardNo}</Untranslated>
        </Typography.Text>
        {card.hasPassword ? (
          <Typography.Text code data-testid={revealed === null ? 'vault-card-password-masked' : 'vault-card-password'}>
            <Untranslated>{revealed === null ? '••••••' : (revealed.cardPassword ?? '')}</Untranslated>
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('vault.noPassword')}</Typography.Text>
        )}
        <Space size={4} className="vault-card-buttons">
        {revealed === null ? (
          <Button size="small" icon={<EyeOutlined />} loading={reveal.isPending} data-testid="vault-reveal" onClick={() => askFirst((ack) => reveal.mutate({ ...ref, ...ack }, { onSuccess: setRevealed }))}>
            {t('vault.reveal')}
          </Button>
        ) : (
          <Button size="small" icon={<EyeInvisibleOutlined />} data-testid="vault-hide" onClick={() => setRevealed(null)}>
            {t('vault.hide')}
          </Button>
        )}
        <Tooltip title={t('vault.copyNo')}>
          <Button size="small" icon={<CopyOutlined />} loading={copy.isPending && copy.variables.field === 'cardNo'} data-testid="vault-copy-no" onClick={() => doCopy('cardNo')}>
            {t('vault.cardNo')}
          </Button>
        </Tooltip>
        {card.hasPassword ? (
          <Tooltip title={t('vault.copyPassword')}>
            <Button size="small" icon={<CopyOutlined />} loading={copy.isPending && copy.variables.field === 'cardPassword'} data-testid="vault-copy-password" onClick={() => doCopy('cardPassword')}>
              {t('vault.password')}
            </Button>
          </Tooltip>
        ) : null}
        </Space>
      </div>
      {failure !== null ? <ProblemAlert explained={explainError(failure)} /> : null}
    </div>
  );
}
