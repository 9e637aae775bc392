// Image addresses for a case or a message: one row per address, each checked as it is typed with the
// rules core applies (public https image URL of at most 2048 characters); at most five.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography } from 'antd';
import { AFTERSALE_LIMITS } from '../../../shared/ipc/views/aftersales';
import { useI18n } from '../i18n/use-i18n';
import { imageRowProblem, ruleText } from '../lib/case-form';

export function ImageUrlFields({ rows, onChange, testIdPrefix }: { rows: readonly string[]; onChange: (rows: string[]) => void; testIdPrefix: string }) {
  const i18n = useI18n();
  const { t } = i18n;
  const filled = rows.filter((row) => row.trim() !== '').length;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      {rows.map((row, index) => {
        const rule = imageRowProblem(row);
        return (
          <Form.Item
            // Rows have no identity but their place; the list only grows at the end or loses one row.
            key={index}
            style={{ marginBottom: 4 }}
            validateStatus={rule !== null ? 'error' : undefined}
            help={rule !== null ? <span data-testid={`${testIdPrefix}-image-error`}>{ruleText(rule, `images.${index}`, i18n)}</span> : undefined}
          >
            <Space.Compact style={{ width: '100%' }}>
              <Input
                data-testid={`${testIdPrefix}-image-input`}
                value={row}
                inputMode="url"
                placeholder={t('aftersale.image.placeholder')}
                onChange={(event) => onChange(rows.map((r, i) => (i === index ? event.target.value : r)))}
              />
              <Button icon={<DeleteOutlined />} aria-label={t('aftersale.image.remove')} onClick={() => onChange(rows.filter((_, i) => i !== index))} />
            </Space.Compact>
          </Form.Item>
        );
      })}
      <Button
        size="small"
        icon={<PlusOutlined />}
        data-testid={`${testIdPrefix}-image-add`}
        disabled={rows.length >= AFTERSALE_LIMITS.imagesMax}
        onClick={() => onChange([...rows, ''])}
      >
        {t('aftersale.image.add')}
      </Button>
      {filled > AFTERSALE_LIMITS.imagesMax ? <Typography.Text type="danger">{ruleText('TOO_MANY_IMAGES', 'images', i18n)}</Typography.Text> : null}
    </Space>
  );
}
