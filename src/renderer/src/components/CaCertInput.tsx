// A CA certificate to trust for one merchant: chosen as a PEM file (read here, never uploaded
// anywhere else) or pasted. Checked with the same rule core applies (shared/connection-input.ts);
// core parses it again before trusting it. Used as a form control (value / onChange).
import { FileAddOutlined } from '@ant-design/icons';
import { Button, Input, Space, Typography } from 'antd';
import { useRef } from 'react';
import { MAX_CA_CERT_PEM_CHARS } from '../../../shared/connection-input';
import { useI18n } from '../i18n/use-i18n';

export interface CaCertInputProps {
  readonly value?: string;
  readonly onChange?: (value: string) => void;
  readonly testId: string;
}

/** Stands for a chosen file over the bound (not shown in the box; the size check names it). */
const TOO_LARGE = ' '.repeat(MAX_CA_CERT_PEM_CHARS + 1);

/** How many certificate blocks the text holds (for "n certificates will be trusted"). */
export function certificateCount(pem: string): number {
  return (pem.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;
}

export function CaCertInput({ value = '', onChange, testId }: CaCertInputProps) {
  const { t } = useI18n();
  const fileInput = useRef<HTMLInputElement>(null);
  const onFile = async (file: File | undefined): Promise<void> => {
    if (file === undefined) return;
    // A PEM file is ASCII, so bytes are characters: a larger file cannot pass and is not even read;
    // the value becomes one that fails the size check, so the field says why.
    if (file.size > MAX_CA_CERT_PEM_CHARS) {
      onChange?.(TOO_LARGE);
      return;
    }
    onChange?.(await file.text());
  };
  const count = certificateCount(value);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Button icon={<FileAddOutlined />} data-testid={`${testId}-choose`} onClick={() => fileInput.current?.click()}>
          {t('connect.caCertChoose')}
        </Button>
        {value !== '' ? (
          <Button type="link" data-testid={`${testId}-clear`} onClick={() => onChange?.('')}>
            {t('connect.caCertClear')}
          </Button>
        ) : null}
      </Space>
      <input
        ref={fileInput}
        type="file"
        accept=".pem,.crt,.cer,application/x-pem-file,application/x-x509-ca-cert"
        style={{ display: 'none' }}
        data-testid={`${testId}-file`}
        onChange={(event) => {
          void onFile(event.target.files?.[0]);
          // The same file chosen again (after an edit) must be read again.
          event.target.value = '';
        }}
      />
      <Input.TextArea
        data-testid={testId}
        value={value.length > MAX_CA_CERT_PEM_CHARS ? '' : value}
        placeholder={t('connect.caCertPaste')}
        autoSize={{ minRows: 3, maxRows: 8 }}
        spellCheck={false}
        style={{ fontFamily: 'monospace', fontSize: 12 }}
        onChange={(event) => onChange?.(event.target.value)}
      />
      {count > 0 ? (
        <Typography.Text type="secondary" data-testid={`${testId}-ready`}>
          {t('connect.caCertReady', { count })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
