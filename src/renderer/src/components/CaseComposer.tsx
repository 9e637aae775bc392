// Writing to the merchant: text (at most 1000 characters) and image addresses, checked with core's
// rules as typed. The message is stored and queued at once (it shows as sending in the chat), so it
// also works while the merchant is unreachable. A closed case (or one whose allowedActions has no
// `message`) takes nothing: the composer says why instead.
import { PictureOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { characterCount, checkMessageDraft } from '../../../shared/aftersale-rules';
import { AFTERSALE_LIMITS, type CaseDetail } from '../../../shared/ipc/views/aftersales';
import { isActionAllowed } from '../../../shared/merchant/known-values';
import { useI18n } from '../i18n/use-i18n';
import { imageRowProblem, problemAt, ruleText } from '../lib/case-form';
import { useSendCaseMessage } from '../queries/aftersales';
import { useOffline } from '../state/connection-state-store';
import { CaseProblemAlert } from './CaseProblemAlert';
import { ImageUrlFields } from './ImageUrlFields';

export function CaseComposer({ detail }: { detail: CaseDetail }) {
  const i18n = useI18n();
  const { t } = i18n;
  const send = useSendCaseMessage();
  const offline = useOffline();
  const [text, setText] = useState('');
  const [rows, setRows] = useState<string[]>([]);
  const [tried, setTried] = useState(false);

  if (detail.state === 'closed' || !isActionAllowed(detail.allowedActions, 'message')) {
    return (
      <Alert
        data-testid="case-composer-disabled"
        type="info"
        showIcon
        title={detail.state === 'closed' ? t('aftersale.composer.closed') : t('aftersale.composer.notAllowed')}
      />
    );
  }

  const checked = checkMessageDraft({ text, images: rows });
  const problems = checked.ok ? [] : checked.problems;
  const textProblem = problemAt(problems, 'text');
  const rowsFine = rows.every((row) => imageRowProblem(row) === null);
  const submit = (): void => {
    setTried(true);
    if (!checked.ok || !rowsFine) return;
    send.mutate(
      { platformCaseRef: detail.platformCaseRef, text: checked.value.text, images: checked.value.images },
      {
        onSuccess: () => {
          setText('');
          setRows([]);
          setTried(false);
        },
      },
    );
  };
  // "Write something" only after a try; a too long text at once.
  const showTextProblem = textProblem !== null && (tried || textProblem.rule === 'TOO_LONG');

  return (
    <div className="case-composer" data-testid="case-composer">
      {send.error !== null ? (
        <div style={{ marginBottom: 8 }}>
          <CaseProblemAlert error={send.error} context="send" />
        </div>
      ) : null}
      <Form layout="vertical" onSubmitCapture={(event) => event.preventDefault()}>
        <Form.Item
          style={{ marginBottom: 8 }}
          validateStatus={showTextProblem ? 'error' : undefined}
          help={showTextProblem && textProblem !== null ? <span data-testid="case-composer-error">{ruleText(textProblem.rule, 'text', i18n)}</span> : undefined}
        >
          <Input.TextArea
            data-testid="case-composer-text"
            value={text}
            autoSize={{ minRows: 2, maxRows: 6 }}
            placeholder={t('aftersale.composer.placeholder')}
            count={{ show: true, max: AFTERSALE_LIMITS.messageTextMax, strategy: (value) => characterCount(value.trim()) }}
            onChange={(event) => setText(event.target.value)}
            onPressEnter={(event) => {
              // Ctrl/⌘+Enter sends; Enter alone is a new line.
              if (event.ctrlKey || event.metaKey) submit();
            }}
          />
        </Form.Item>
        {rows.length > 0 ? <ImageUrlFields rows={rows} onChange={setRows} testIdPrefix="case-composer" /> : null}
        <Space style={{ marginTop: 8, justifyContent: 'space-between', width: '100%' }}>
          <Space>
            {rows.length === 0 ? (
              <Button icon={<PictureOutlined />} onClick={() => setRows([''])} data-testid="case-composer-add-image">
                {t('aftersale.image.add')}
              </Button>
            ) : null}
            {offline ? <Typography.Text type="secondary">{t('aftersale.composer.offline')}</Typography.Text> : null}
          </Space>
          <Button type="primary" icon={<SendOutlined />} loading={send.isPending} onClick={submit} data-testid="case-send">
            {t('aftersale.composer.send')}
          </Button>
        </Space>
      </Form>
    </div>
  );
}
