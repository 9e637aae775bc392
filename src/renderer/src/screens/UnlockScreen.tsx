// The unlock step before core opens (shared/ipc/unlock.ts): with the buyer's secrets in the
// passphrase file, main waits for the passphrase before it opens the database and the vault. The app
// itself is mounted only once main says it is unlocked; a wrong passphrase is said and asked again.
// In a browser (web host) there is no such step: --data with PROCURE_PASSPHRASE unlocks there.
import { Alert, Button, Card, Form, Input, Spin, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import type { UnlockApi } from '../../../shared/ipc/unlock';
import { useI18n } from '../i18n/use-i18n';

type Phase = 'checking' | 'needed' | 'open';

function UnlockForm({ unlock, wrongAtStart, onOpen }: { unlock: UnlockApi; wrongAtStart: boolean; onOpen: () => void }) {
  const { t } = useI18n();
  const [passphrase, setPassphrase] = useState('');
  const [wrong, setWrong] = useState(wrongAtStart);
  const [busy, setBusy] = useState(false);
  const submit = (): void => {
    if (passphrase === '' || busy) return;
    setBusy(true);
    const typed = passphrase;
    // Not kept once sent: a wrong one is typed again, a right one is no longer needed here.
    setPassphrase('');
    unlock
      .submit(typed)
      .then((answer) => {
        setBusy(false);
        if (answer.unlocked) onOpen();
        else setWrong(answer.wrong);
      })
      .catch(() => setBusy(false));
  };
  return (
    <div className="app-loading">
      <Card title={t('unlock.title')} style={{ width: 440 }} data-testid="unlock-screen">
        <Typography.Paragraph>{t('unlock.body')}</Typography.Paragraph>
        {wrong ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('unlock.wrong')} data-testid="unlock-wrong" /> : null}
        <Form layout="vertical" onFinish={submit}>
          <Form.Item label={t('unlock.passphrase')}>
            <Input.Password autoFocus autoComplete="current-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="unlock-passphrase" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} disabled={passphrase === ''} data-testid="unlock-submit">
            {t('unlock.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

/** Renders `children` (the app) once nothing is left to unlock. */
export function UnlockGate({ children }: { children: ReactNode }) {
  const unlock = window.procureDesk?.unlock;
  const [phase, setPhase] = useState<Phase>(unlock === undefined ? 'open' : 'checking');
  const [wrongAtStart, setWrongAtStart] = useState(false);
  useEffect(() => {
    if (unlock === undefined) return;
    let live = true;
    void unlock.state().then((state) => {
      if (!live) return;
      setWrongAtStart(state.wrong);
      setPhase(state.needed ? 'needed' : 'open');
    });
    return () => {
      live = false;
    };
  }, [unlock]);
  if (phase === 'open') return <>{children}</>;
  if (phase === 'checking' || unlock === undefined) {
    return (
      <div className="app-loading">
        <Spin size="large" />
      </div>
    );
  }
  return <UnlockForm unlock={unlock} wrongAtStart={wrongAtStart} onOpen={() => setPhase('open')} />;
}
