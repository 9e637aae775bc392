// Settings → the low-balance line: typed in yuan, checked here (empty, not yuan, negative, too large)
// and again by core's contract, stored in fen. 0 turns the notice off.
import { App, Button, Card, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { fenToYuanText } from '../../../shared/money';
import { useI18n } from '../i18n/use-i18n';
import { formatFen } from '../lib/money';
import { parseLowBalanceYuan } from '../lib/spend-view';
import { useSetSettings, useSettings } from '../queries/settings';

export function LowBalanceSetting() {
  const { t } = useI18n();
  const { message } = App.useApp();
  const settings = useSettings();
  const save = useSetSettings();
  const stored = settings.data?.lowBalanceFen;
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (stored !== undefined && !touched) setText(fenToYuanText(stored));
  }, [stored, touched]);
  const parsed = parseLowBalanceYuan(text);
  const problem = 'problem' in parsed ? parsed.problem : null;
  const submit = (): void => {
    if (!('fen' in parsed)) return;
    const fen = parsed.fen;
    save.mutate(
      { lowBalanceFen: fen },
      {
        onSuccess: () => {
          setTouched(false);
          void message.success(fen === 0 ? t('settings.lowBalance.off') : t('settings.lowBalance.saved', { amount: formatFen(fen) }));
        },
      },
    );
  };
  return (
    <Card title={t('settings.lowBalance')} data-testid="settings-low-balance">
      <Form layout="vertical" style={{ maxWidth: 420 }} onFinish={submit}>
        <Form.Item
          label={t('settings.lowBalance.label')}
          extra={t('settings.lowBalance.help')}
          validateStatus={touched && problem !== null ? 'error' : undefined}
          help={touched && problem !== null ? <span data-testid="low-balance-problem">{t(`settings.lowBalance.problem.${problem}`)}</span> : undefined}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Input
              prefix="¥"
              inputMode="decimal"
              value={text}
              onChange={(event) => {
                setTouched(true);
                setText(event.target.value);
              }}
              data-testid="low-balance-input"
            />
            <Button type="primary" htmlType="submit" disabled={problem !== null || !touched} loading={save.isPending} data-testid="low-balance-save">
              {t('settings.lowBalance.save')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </Card>
  );
}
