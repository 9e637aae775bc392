// A link's fallback rule: the highest unit price the buyer accepts (yuan, read to fen by
// lib/fallback-limit.ts) and the merchants in the order to try. Only with a rule do the batch and the
// CLI fall back unasked; clearing it means every fallback is asked again. A limit the box cannot mean
// is said so under it and nothing is saved.
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { initialPreference, movePreference, parseLimitText, type LimitError } from '../lib/fallback-limit';
import { fenToYuanText } from '../../../shared/money';
import { formatFen } from '../lib/money';
import { useSetRule } from '../queries/compare';
import type { LinkView } from '../../../shared/ipc/views/compare';
import { MerchantName } from './MerchantName';
import { ProblemAlert } from './ProblemAlert';

const LIMIT_ERROR_KEY: Record<LimitError, `compare.limitError.${LimitError}`> = {
  empty: 'compare.limitError.empty',
  notAmount: 'compare.limitError.notAmount',
  zero: 'compare.limitError.zero',
  negative: 'compare.limitError.negative',
  tooLarge: 'compare.limitError.tooLarge',
};

export function FallbackRuleEditor({ link }: { link: LinkView }) {
  const { t } = useI18n();
  const setRule = useSetRule();
  const memberProfiles = link.members.map((member) => member.merchant.profileId);
  const names = new Map(link.members.map((member) => [member.merchant.profileId, member.merchant] as const));
  const [limitText, setLimitText] = useState(link.rule === null ? '' : fenToYuanText(link.rule.maxUnitPriceFen));
  const [preference, setPreference] = useState<string[]>(() => initialPreference(link.rule?.preference ?? null, memberProfiles));
  const [tried, setTried] = useState(false);
  const parsed = parseLimitText(limitText);
  const shownError = tried && !parsed.ok ? parsed.error : null;
  const order = initialPreference(preference, memberProfiles).filter((id) => names.has(id));

  const save = (): void => {
    setTried(true);
    if (!parsed.ok) return;
    setRule.mutate({ linkId: link.linkId, rule: { maxUnitPriceFen: parsed.fen, preference: order } });
  };

  return (
    <div className="compare-rule" data-testid="rule-editor" style={{ marginTop: 16 }}>
      <Typography.Text strong>{t('compare.rule.title')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {link.rule === null ? t('compare.rule.none') : t('compare.rule.current', { limit: formatFen(link.rule.maxUnitPriceFen) })}
      </Typography.Paragraph>
      <Space align="start" wrap style={{ display: 'flex' }}>
        <div>
          <Input
            data-testid="rule-limit"
            addonBefore="¥"
            style={{ width: 200 }}
            placeholder={t('compare.rule.limitPlaceholder')}
            value={limitText}
            status={shownError !== null ? 'error' : undefined}
            aria-invalid={shownError !== null}
            onChange={(event) => setLimitText(event.target.value)}
            onPressEnter={save}
          />
          {shownError !== null ? (
            <div className="field-error" data-testid="rule-limit-error" role="alert">
              <Typography.Text type="danger">{t(LIMIT_ERROR_KEY[shownError])}</Typography.Text>
            </div>
          ) : null}
        </div>
        <ol className="compare-preference" data-testid="rule-preference">
          {order.map((id, index) => {
            const merchant = names.get(id);
            return merchant === undefined ? null : (
              <li key={id} data-testid={`rule-preference-${id}`}>
                <MerchantName merchant={merchant} />
                <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label={t('compare.rule.up')} disabled={index === 0} onClick={() => setPreference(movePreference(order, index, -1))} data-testid="rule-up" />
                <Button size="small" type="text" icon={<ArrowDownOutlined />} aria-label={t('compare.rule.down')} disabled={index === order.length - 1} onClick={() => setPreference(movePreference(order, index, 1))} data-testid="rule-down" />
              </li>
            );
          })}
        </ol>
      </Space>
      <Space style={{ display: 'flex', marginTop: 8 }}>
        <Button type="primary" onClick={save} loading={setRule.isPending} data-testid="rule-save">
          {t('compare.rule.save')}
        </Button>
        <Button
          onClick={() => {
            setTried(false);
            setLimitText('');
            setRule.mutate({ linkId: link.linkId, rule: null });
          }}
          disabled={link.rule === null}
          data-testid="rule-clear"
        >
          {t('compare.rule.clear')}
        </Button>
      </Space>
      {setRule.error !== null ? <ProblemAlert explained={explainError(setRule.error)} testId="rule-error" /> : null}
    </div>
  );
}
