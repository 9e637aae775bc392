// Said before an order is paid while the secret store keeps secrets in memory only (Linux's basic_text
// keyring not accepted for disk, no keyring at all, or the web host without --data): the vault key of
// this run is lost when the app stops, so card codes stored now cannot be opened after a restart. The
// buyer reads what it means and what to click (desktop) or whom to ask (browser); the command to
// restart with is folded under "给技术人员" (ForTechnicalStaff). Only for orders that deliver card codes.
import { Alert, Typography } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useConnectionStatus } from '../queries/connection';
import { PassphraseFileAction } from './PassphraseFileDialog';
import { deliversCardCodes } from '../lib/card-code-warning';
import { codeSlot, ForTechnicalStaff, WordsWithCode } from './ForTechnicalStaff';

export function MemoryOnlySecretsWarning({ productType, batch = false }: { productType: string | null; batch?: boolean }) {
  const { t } = useI18n();
  const status = useConnectionStatus();
  if (status.data?.secretStore !== 'memory' || !deliversCardCodes(productType)) return null;
  // Offered by the desktop app only: the buyer can act here; elsewhere (the web host) someone restarts it.
  const canKeepHere = status.data.passphraseFileOffered === true;
  const restart = `npm run web -- --data <${t('secrets.memoryOnly.dataDir')}>`;
  return (
    <Alert
      type="warning"
      showIcon
      style={batch ? { marginTop: 12 } : { marginBottom: 16 }}
      data-testid="memory-only-secrets"
      title={batch ? t('secrets.memoryOnly.titleBatch') : t('secrets.memoryOnly.title')}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 4 }}>
            {canKeepHere ? t('secrets.memoryOnly.keepHere') : t('secrets.memoryOnly.keepAsk')}
          </Typography.Paragraph>
          <ForTechnicalStaff testId="memory-only-technical">
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              {canKeepHere ? (
                t('secrets.memoryOnly.techDesktop')
              ) : (
                <WordsWithCode text={t('secrets.memoryOnly.techWeb', { env: codeSlot(0), command: codeSlot(1) })} codes={['PROCURE_PASSPHRASE', restart]} />
              )}
            </Typography.Paragraph>
          </ForTechnicalStaff>
        </>
      }
      action={<PassphraseFileAction />}
    />
  );
}
