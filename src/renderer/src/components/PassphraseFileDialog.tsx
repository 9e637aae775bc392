// "Keep secrets in a passphrase-protected file": offered while the desktop app keeps the API
// key and the vault's key in memory only. The passphrase is typed twice, measured by the export
// password's rule and meter, sent once and then dropped (never kept in state or the query cache).
import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { passphraseFormState } from '../lib/passphrase-form';
import { useConnectionStatus, useUsePassphraseFile } from '../queries/connection';
import { PasswordStrength } from './PasswordStrength';
import { ProblemAlert } from './ProblemAlert';

function PassphraseFileDialog({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const move = useUsePassphraseFile();
  const form = passphraseFormState(passphrase, confirm);
  const submit = (): void => {
    if (!form.ready || move.isPending) return;
    move.mutate(passphrase, {
      onSuccess: () => {
        setPassphrase('');
        setConfirm('');
        onClose();
      },
    });
  };
  return (
    <Modal
      open
      title={t('secrets.passphraseFile.title')}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose} data-testid="passphrase-file-cancel">
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" disabled={!form.ready} loading={move.isPending} onClick={submit} data-testid="passphrase-file-submit">
          {t('secrets.passphraseFile.submit')}
        </Button>,
      ]}
      data-testid="passphrase-file-dialog"
    >
      <Typography.Paragraph>{t('secrets.passphraseFile.body')}</Typography.Paragraph>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('secrets.passphraseFile.remember')} />
      <Form layout="vertical" onFinish={submit}>
        <Form.Item label={t('secrets.passphraseFile.passphrase')}>
          <Input.Password autoComplete="new-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="passphrase-file-passphrase" />
          <PasswordStrength password={passphrase} />
        </Form.Item>
        <Form.Item
          label={t('secrets.passphraseFile.confirm')}
          validateStatus={form.mismatch ? 'error' : ''}
          help={form.mismatch ? t('secrets.passphraseFile.mismatch') : undefined}
        >
          <Input.Password autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} onPressEnter={submit} data-testid="passphrase-file-confirm" />
        </Form.Item>
      </Form>
      {move.error !== null ? <ProblemAlert explained={explainError(move.error)} /> : null}
    </Modal>
  );
}

/** The action beside a memory-only notice; shown only where the host offers the passphrase file. */
export function PassphraseFileAction() {
  const { t } = useI18n();
  const status = useConnectionStatus();
  const [open, setOpen] = useState(false);
  if (status.data?.passphraseFileOffered !== true) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} data-testid="passphrase-file-open">
        {t('secrets.passphraseFile.action')}
      </Button>
      {open ? <PassphraseFileDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
