// Shown on the vault while its data key is missing from the secret store: says so (the app never
// replaces the key by itself), and offers the one way forward the buyer must choose explicitly.
import { Alert, App, Button, Popconfirm } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useStartNewVaultKey, useVaultKeyStatus } from '../queries/vault';
import { ProblemAlert } from './ProblemAlert';

export function VaultKeyMissingAlert() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const status = useVaultKeyStatus();
  const startNew = useStartNewVaultKey();
  if (status.data?.missing !== true) return null;
  return (
    <>
      <Alert
        type="error"
        showIcon
        data-testid="vault-key-missing"
        title={t('vault.keyMissing.title')}
        description={t('vault.keyMissing.body')}
        action={
          <Popconfirm
            title={t('vault.keyMissing.confirm')}
            okButtonProps={{ danger: true, 'data-testid': 'vault-start-new-key-confirm' }}
            onConfirm={() => startNew.mutate(undefined, { onSuccess: () => void message.success(t('vault.keyMissing.started')) })}
          >
            <Button danger loading={startNew.isPending} data-testid="vault-start-new-key">
              {t('vault.keyMissing.startNew')}
            </Button>
          </Popconfirm>
        }
      />
      {startNew.error !== null ? <ProblemAlert explained={explainError(startNew.error)} /> : null}
    </>
  );
}
