// Settings' view of the CA trusted for the connected merchant only: which one (subject, fingerprint,
// end of validity) or none, and Add / Replace / Remove. Each change is a connect test with the stored
// key (connection.setCaCert): kept only when the merchant answers, its failure named on the spot.
import { App, Button, Form, Modal, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import type { ConnectionStatus } from '../../../shared/ipc/views/connection';
import { Untranslated, WithMerchantData } from './MerchantText';
import { useI18n } from '../i18n/use-i18n';
import { caCertFieldProblem, caCertToSend } from '../lib/connect-form-rules';
import { formatSeconds } from '../lib/format-time';
import { useSetCaCert } from '../queries/connection';
import { CaCertInput } from './CaCertInput';
import { ConnectFailureAlert } from './ConnectFailureAlert';

/** The Descriptions item's content: the CA in use, or "none". */
export function TrustedCaSummary({ status }: { status: ConnectionStatus }) {
  const { t, locale } = useI18n();
  const ca = status.caCert ?? null;
  if (ca === null) return <span data-testid="settings-ca-cert">{t('settings.caCertNone')}</span>;
  return (
    <Space orientation="vertical" size={0} data-testid="settings-ca-cert" data-in-use="true">
      <Typography.Text>
        {/* The certificate's own name, as its issuer wrote it: labelled as technical data. */}
        {t('settings.caCertSubject')}
        <Untranslated kind="technical">{ca.subject}</Untranslated>
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
        <WithMerchantData text={t('settings.caCertFingerprint', { fingerprint: ca.fingerprint256 })} data={[ca.fingerprint256]} />
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('settings.caCertValidTo', { date: formatSeconds(ca.validTo, locale) })}
      </Typography.Text>
    </Space>
  );
}

/** Add or Replace (a dialog with the PEM field) and Remove (confirmed), each tested before it is kept. */
export function TrustedCaActions({ status }: { status: ConnectionStatus }) {
  const { t, td } = useI18n();
  const { message } = App.useApp();
  const setCa = useSetCaCert();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ caCertPem?: string }>();
  const inUse = (status.caCert ?? null) !== null;
  const close = (): void => {
    setOpen(false);
    setCa.reset();
    form.resetFields();
  };
  const save = (values: { caCertPem?: string }): void => {
    const pem = caCertToSend(values.caCertPem);
    if (pem === null) return;
    setCa.mutate(pem, {
      onSuccess: () => {
        close();
        void message.success(t('settings.caCertSaved'));
      },
    });
  };
  return (
    <>
      <Space wrap>
        <Button
          size="small"
          data-testid="settings-ca-cert-edit"
          onClick={() => {
            setCa.reset();
            setOpen(true);
          }}
        >
          {inUse ? t('settings.caCertReplace') : t('settings.caCertAdd')}
        </Button>
        {inUse ? (
          <Popconfirm
            title={t('settings.caCertRemoveConfirm')}
            okButtonProps={{ danger: true, 'data-testid': 'settings-ca-cert-remove-confirm' }}
            onConfirm={() => setCa.mutate(null, { onSuccess: () => void message.success(t('settings.caCertRemoved')) })}
          >
            <Button size="small" danger data-testid="settings-ca-cert-remove" loading={setCa.isPending && !open}>
              {t('settings.caCertRemove')}
            </Button>
          </Popconfirm>
        ) : null}
      </Space>
      {!open && setCa.error !== null ? (
        <div style={{ marginTop: 8 }}>
          <ConnectFailureAlert error={setCa.error} testId="settings-ca-cert-error" inSettings />
        </div>
      ) : null}
      <Modal
        open={open}
        title={t('settings.caCertModalTitle')}
        okText={t('settings.caCertSave')}
        cancelText={t('connect.cancel')}
        confirmLoading={setCa.isPending}
        okButtonProps={{ 'data-testid': 'settings-ca-cert-save' }}
        cancelButtonProps={{ 'data-testid': 'settings-ca-cert-cancel' }}
        onOk={() => form.submit()}
        onCancel={close}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('settings.caCertModalHint')}</Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={save} requiredMark={false}>
          <Form.Item
            name="caCertPem"
            rules={[
              { required: true, message: t('connect.required') },
              {
                validator: (_rule, value: string | undefined) => {
                  const problem = caCertFieldProblem(value);
                  return problem === null ? Promise.resolve() : Promise.reject(new Error(td(`connectInput.${problem}`, 'problem.invalidInput.body')));
                },
              },
            ]}
          >
            <CaCertInput testId="settings-ca-cert-input" />
          </Form.Item>
        </Form>
        {setCa.error !== null ? <ConnectFailureAlert error={setCa.error} testId="settings-ca-cert-error" inSettings /> : null}
      </Modal>
    </>
  );
}
