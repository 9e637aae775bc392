// First run: connect to a merchant (tested at once, balance and state shown), or the built-in demo
// merchant in one click.
import { ExperimentOutlined, LinkOutlined } from '@ant-design/icons';
import { Button, Card, Divider, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { AccountSummary } from '../components/AccountSummary';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { useConnect, useStartDemo } from '../queries/connection';
import type { AccountView } from '../../../shared/ipc/views/connection';

interface ConnectValues {
  baseUrl: string;
  userId: string;
  apiKey: string;
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function ConnectScreen({ onDone, onStart }: { onDone: () => void; onStart: () => void }) {
  const { t } = useI18n();
  const connect = useConnect();
  const demo = useStartDemo();
  const [account, setAccount] = useState<AccountView | null>(null);
  const failure = connect.error ?? demo.error;
  const busy = connect.isPending || demo.isPending;

  const onFinish = (values: ConnectValues): void => {
    demo.reset();
    onStart();
    connect.mutate(
      { baseUrl: values.baseUrl.trim(), userId: values.userId.trim(), apiKey: values.apiKey.trim() },
      { onSuccess: (view) => setAccount(view) },
    );
  };

  return (
    <div className="connect-page" data-testid="connect-screen">
      <div className="connect-top">
        <LanguageSwitch />
      </div>
      <Card className="connect-card">
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('app.name')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('connect.subtitle')}</Typography.Paragraph>
        {account !== null ? (
          <Space orientation="vertical" style={{ width: '100%' }} size="middle">
            <Typography.Text strong data-testid="connect-success">
              {t('connect.success', { name: account.nickname })}
            </Typography.Text>
            <AccountSummary account={account} />
            <Button type="primary" block data-testid="connect-continue" onClick={onDone}>
              {t('connect.continue')}
            </Button>
          </Space>
        ) : (
          <>
            <Typography.Title level={5}>{t('connect.title')}</Typography.Title>
            <Form<ConnectValues> layout="vertical" onFinish={onFinish} disabled={busy} requiredMark={false}>
              <Form.Item
                name="baseUrl"
                label={t('connect.baseUrl')}
                extra={t('connect.baseUrlHint')}
                rules={[
                  { required: true, message: t('connect.required') },
                  { validator: (_rule, value: string | undefined) => (value === undefined || value === '' || isHttpsUrl(value) ? Promise.resolve() : Promise.reject(new Error(t('connect.baseUrlInvalid')))) },
                ]}
              >
                <Input data-testid="connect-base-url" placeholder="https://" autoComplete="url" />
              </Form.Item>
              <Form.Item name="userId" label={t('connect.userId')} rules={[{ required: true, message: t('connect.required') }]}>
                <Input data-testid="connect-user-id" autoComplete="username" />
              </Form.Item>
              <Form.Item name="apiKey" label={t('connect.apiKey')} extra={t('connect.apiKeyHint')} rules={[{ required: true, message: t('connect.required') }]}>
                <Input.Password data-testid="connect-api-key" autoComplete="off" />
              </Form.Item>
              {failure !== null ? (
                <div style={{ marginBottom: 16 }}>
                  <ProblemAlert explained={explainError(failure)} testId="connect-error" />
                </div>
              ) : null}
              <Button type="primary" htmlType="submit" block icon={<LinkOutlined />} loading={connect.isPending} data-testid="connect-submit">
                {t('connect.submit')}
              </Button>
            </Form>
            <Divider plain>{t('connect.or')}</Divider>
            <Button
              block
              icon={<ExperimentOutlined />}
              loading={demo.isPending}
              disabled={busy}
              data-testid="connect-demo"
              onClick={() => {
                connect.reset();
                onStart();
                demo.mutate(undefined, { onSuccess: (view) => setAccount(view) });
              }}
            >
              {t('connect.demo')}
            </Button>
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
              {t('connect.demoHint')}
            </Typography.Paragraph>
          </>
        )}
      </Card>
    </div>
  );
}
