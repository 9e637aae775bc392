// The quantity box of the order form: a plain text box that shows exactly what the model holds (as
// typed, never padded or clamped), with − / + buttons that move by the rule's step. Whatever the box
// says is read by the order model; a value the rule does not allow is an error under the box.
import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import type { UnitsTextError } from '../lib/order-draft';
import type { UnitRule } from '../lib/template-form';

interface Props {
  readonly text: string;
  readonly rule: UnitRule;
  readonly error: UnitsTextError | null;
  readonly showError: boolean;
  /** Published stock below what the box says: a warning, the merchant decides (422102). */
  readonly stockWarning: string | null;
  onText: (text: string) => void;
  onStep: (direction: 1 | -1) => void;
  onBlur: () => void;
}

export function unitRuleText(t: ReturnType<typeof useI18n>['t'], rule: UnitRule): string {
  if (rule.min === rule.max) return t('orderForm.unitsFixed', { count: rule.min });
  if (rule.step === 1) return t('orderForm.unitsRange', { min: rule.min, max: rule.max });
  return t('order.unitRule', { min: rule.min, max: rule.max, step: rule.step });
}

export function unitsErrorText(t: ReturnType<typeof useI18n>['t'], error: UnitsTextError): string {
  switch (error.code) {
    case 'unitsEmpty':
      return t('orderForm.unitsEmpty');
    case 'unitsNotWhole':
      return t('orderForm.unitsNotWhole');
    case 'unitsRange':
      return error.min === error.max ? t('orderForm.unitsFixed', { count: error.min }) : t('field.unitsRange', { min: error.min, max: error.max });
    case 'unitsStep':
      return t('field.unitsStep', { min: error.min, max: error.max, step: error.step });
  }
}

export function UnitsInput({ text, rule, error, showError, stockWarning, onText, onStep, onBlur }: Props) {
  const { t } = useI18n();
  const fixed = rule.min === rule.max;
  const visibleError = showError && error !== null ? unitsErrorText(t, error) : null;
  const help =
    visibleError !== null ? (
      <span data-testid="order-units-error">{visibleError}</span>
    ) : stockWarning !== null ? (
      <span data-testid="order-units-stock">{stockWarning}</span>
    ) : (
      <span data-testid="order-units-rule">{unitRuleText(t, rule)}</span>
    );
  return (
    <Form.Item
      label={t('order.units')}
      htmlFor="order-units"
      required
      validateStatus={visibleError !== null ? 'error' : stockWarning !== null ? 'warning' : undefined}
      help={help}
    >
      <Space.Compact>
        <Button aria-label={t('orderForm.unitsLess')} icon={<MinusOutlined />} disabled={fixed} data-testid="order-units-less" onClick={() => onStep(-1)} />
        <Input
          id="order-units"
          data-testid="order-units"
          inputMode="numeric"
          autoComplete="off"
          style={{ width: 96, textAlign: 'center' }}
          value={text}
          disabled={fixed}
          status={visibleError !== null ? 'error' : undefined}
          onChange={(event) => onText(event.target.value)}
          onBlur={onBlur}
          onKeyDown={(event) => {
            if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
              event.preventDefault();
              onStep(event.key === 'ArrowUp' ? 1 : -1);
            }
          }}
        />
        <Button aria-label={t('orderForm.unitsMore')} icon={<PlusOutlined />} disabled={fixed} data-testid="order-units-more" onClick={() => onStep(1)} />
      </Space.Compact>
    </Form.Item>
  );
}
