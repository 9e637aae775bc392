// Said before an order is paid while the secret store keeps secrets in memory only (Linux's basic_text
// keyring not accepted for disk, no keyring at all, or the web host without --data): the vault key of
// this run is lost when the app stops, so card codes stored now cannot be opened after a restart
// until the merchant delivers them again. The buyer learns it here, before any card is stored, with
// the stores that do last, and (desktop app) the action that moves the secrets into a passphrase file.
// Only for orders that deliver card codes: a top-up stores none (deliversCardCodes).
import { Alert } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useConnectionStatus } from '../queries/connection';
import { PassphraseFileAction } from './PassphraseFileDialog';
import { deliversCardCodes } from '../lib/card-code-warning';

export function MemoryOnlySecretsWarning({ productType }: { productType: string | null }) {
  const { t } = useI18n();
  const status = useConnectionStatus();
  if (status.data?.secretStore !== 'memory' || !deliversCardCodes(productType)) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="memory-only-secrets"
      title={t('secrets.memoryOnly.title')}
      description={t('secrets.memoryOnly.body')}
      action={<PassphraseFileAction />}
    />
  );
}
