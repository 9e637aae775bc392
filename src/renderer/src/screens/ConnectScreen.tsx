// First run: connect to a merchant (tested at once, balance and state shown), or the built-in demo
// merchant in one click. Also "connect to another merchant" from Settings: then the current address is
// prefilled and Cancel goes back with nothing changed. A failed test is named (connect-failure.ts),
// and an advanced section trusts a private CA for this merchant only.
import { ExperimentOutlined, LinkOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Collapse, Divider, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { AccountSummary } from '../components/AccountSummary';
import { CaCertInput } from '../components/CaCertInput';
import { ConnectFailureAlert } from '../components/ConnectFailureAlert';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useI18n } from '../i18n/use-i18n';
import { addressFieldProblem, caCertFieldProblem, caCertToSend } from '../lib/connect-form-rules';
import { useConnect, useStartDemo } from '../queries/connection';
import { completeBaseUrl } from '../../../shared/connection-input';
import type { AccountView } from '../../../shared/ipc/views/connection';
import { isAccessActive } from '../../../shared/merchant/known-values';

interface ConnectValues {
  baseUrl: string;
  userId: string;
  apiKey: string;
  caCertPem?: string;
}

export interface ConnectScreenProps {
  onDone: () => void;
  onStart: () => void;
  /** Connecting to another merchant: goes back to the app with nothing changed. Absent on first run. */
  onCancel?: () => void;
  /** The address to start from (the current merchant's, when switching). */
  initialBaseUrl?: string;
}

export function ConnectScreen({ onDone, onStart, onCancel, initialBaseUrl }: ConnectScreenProps) {
  const { t, td } = useI18n();
  const connect = useConnect();
  const demo = useStartDemo();
  const [account, setAccount] = useState<AccountView | null>(null);
  const failure = connect.error ?? demo.error;
  const busy = connect.isPending || demo.isPending;
  const switching = onCancel !== undefined;

  const onFinish = (values: ConnectValues): void => {
    demo.reset();
    onStart();
    connect.mutate(
      { baseUrl: completeBaseUrl(values.baseUrl), userId: values.userId.trim(), apiKey: values.apiKey.trim(), caCertPem: caCertToSend(values.caCertPem) },
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
        <Typography.Paragraph type="secondary">{switching && account === null ? t('connect.switchSubtitle') : t('connect.subtitle')}</Typography.Paragraph>
        {account !== null ? (
          <Space orientation="vertical" style={{ width: '100%' }} size="middle">
            <Typography.Text strong data-testid="connect-success">
              {t('connect.success', { name: account.nickname })}
            </Typography.Text>
            <AccountSummary account={account} />
            {isAccessActive(account.accessState) ? null : (
              // GET /account answers a suspended account too (interface v1 §5): connected, but ordering is refused.
              <Alert type="warning" showIcon data-testid="connect-suspended" title={t('connectFailure.suspended.title')} description={t('connect.suspendedBody')} />
            )}
            <Button type="primary" block data-testid="connect-continue" onClick={onDone}>
              {t('connect.continue')}
            </Button>
          </Space>
        ) : (
          <>
            <Typography.Title level={5}>{switching ? t('connect.switchTitle') : t('connect.title')}</Typography.Title>
            <Form<ConnectValues> layout="vertical" onFinish={onFinish} disabled={busy} requiredMark={false} initialValues={{ baseUrl: initialBaseUrl ?? '' }}>
              <Form.Item
                name="baseUrl"
                label={t('connect.baseUrl')}
                extra={t('connect.baseUrlHint')}
                rules={[
                  { required: true, message: t('connect.required') },
                  {
                    validator: (_rule, value: string | undefined) => {
                      const problem = addressFieldProblem(value);
                      return problem === null ? Promise.resolve() : Promise.reject(new Error(td(`connectInput.${problem}`, 'connect.baseUrlInvalid')));
                    },
                  },
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
              <Collapse
                ghost
                size="small"
                style={{ marginBottom: 16 }}
                items={[
                  {
                    key: 'advanced',
                    label: <span data-testid="connect-advanced">{t('connect.advanced')}</span>,
                    forceRender: true,
                    children: (
                      <Form.Item
                        name="caCertPem"
                        label={t('connect.caCert')}
                        extra={t('connect.caCertHint')}
                        style={{ marginBottom: 0 }}
                        rules={[
                          {
                            validator: (_rule, value: string | undefined) => {
                              const problem = caCertFieldProblem(value);
                              return problem === null ? Promise.resolve() : Promise.reject(new Error(td(`connectInput.${problem}`, 'problem.invalidInput.body')));
                            },
                          },
                        ]}
                      >
                        <CaCertInput testId="connect-ca-cert" />
                      </Form.Item>
                    ),
                  },
                ]}
              />
              {failure !== null ? (
                <div style={{ marginBottom: 16 }}>
                  <ConnectFailureAlert error={failure} testId="connect-error" />
                </div>
              ) : null}
              <Space orientation="vertical" style={{ width: '100%' }}>
                <Button type="primary" htmlType="submit" block icon={<LinkOutlined />} loading={connect.isPending} data-testid="connect-submit">
                  {t('connect.submit')}
                </Button>
                {onCancel !== undefined ? (
                  <Button block data-testid="connect-cancel" onClick={onCancel}>
                    {t('connect.cancel')}
                  </Button>
                ) : null}
              </Space>
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
