// Linking: the buyer says that a variant at one merchant is the same thing to buy as a variant at
// another. Products have variants and a link joins variants, so both sides pick one (with its price);
// the counterpart is chosen among the other merchants' rows of the same comparison.
import { Alert, Button, Form, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { explainError } from '../lib/explain-error';
import { formatFen } from '../lib/money';
import { useLink, useMerchantProduct } from '../queries/compare';
import type { CompareRow } from '../../../shared/ipc/views/compare';
import { MerchantName } from './MerchantName';
import { Untranslated } from './MerchantText';
import { ProblemAlert } from './ProblemAlert';

const rowKey = (row: CompareRow): string => `${row.merchant.profileId}/${row.product.productRef}`;

function VariantPick({ row, value, onChange, testId }: { row: CompareRow; value: number | null; onChange: (variantRef: number) => void; testId: string }) {
  const { t } = useI18n();
  const product = useMerchantProduct(row.merchant.profileId, row.product.productRef);
  const variants = product.data?.variants ?? [];
  return (
    <Select<number>
      data-testid={testId}
      style={{ width: '100%' }}
      loading={product.isLoading}
      placeholder={t('compare.linkModal.pickVariant')}
      value={value ?? undefined}
      onChange={onChange}
      notFoundContent={product.isLoading ? t('common.loading') : t('compare.linkModal.noVariants')}
      options={variants.map((variant) => ({
        value: variant.variantRef,
        label: (
          <span data-testid={`${testId}-option`}>
            <Untranslated>{variant.title}</Untranslated> · {formatFen(variant.priceFen)}
          </span>
        ),
      }))}
    />
  );
}

export function LinkVariantsModal({ source, rows, onClose }: { source: CompareRow; rows: readonly CompareRow[]; onClose: () => void }) {
  const { t } = useI18n();
  const link = useLink();
  const [sourceVariant, setSourceVariant] = useState<number | null>(null);
  const [targetKey, setTargetKey] = useState<string | null>(null);
  const [targetVariant, setTargetVariant] = useState<number | null>(null);
  const candidates = rows.filter((row) => row.merchant.profileId !== source.merchant.profileId);
  const target = candidates.find((row) => rowKey(row) === targetKey) ?? null;
  const ready = sourceVariant !== null && target !== null && targetVariant !== null;

  const submit = (): void => {
    if (!ready) return;
    link.mutate(
      {
        a: { profileId: source.merchant.profileId, productRef: source.product.productRef, variantRef: sourceVariant },
        b: { profileId: target.merchant.profileId, productRef: target.product.productRef, variantRef: targetVariant },
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal open onCancel={onClose} title={t('compare.linkModal.title')} footer={null} width={640} destroyOnHidden data-testid="link-modal">
      <Form layout="vertical">
        <Form.Item label={<Space><MerchantName merchant={source.merchant} /><Untranslated>{source.product.name}</Untranslated></Space>}>
          <VariantPick row={source} value={sourceVariant} onChange={setSourceVariant} testId="link-source-variant" />
        </Form.Item>
        <Form.Item label={t('compare.linkModal.counterpart')}>
          {candidates.length === 0 ? (
            <Alert type="info" showIcon title={t('compare.linkModal.noCandidates')} data-testid="link-no-candidates" />
          ) : (
            <Select<string>
              data-testid="link-target"
              style={{ width: '100%' }}
              placeholder={t('compare.linkModal.pickCounterpart')}
              value={targetKey ?? undefined}
              onChange={(value) => {
                setTargetKey(value);
                setTargetVariant(null);
              }}
              options={candidates.map((row) => ({
                value: rowKey(row),
                label: (
                  <span data-testid="link-target-option">
                    <Untranslated kind="buyer">{row.merchant.name}</Untranslated> · <Untranslated>{row.product.name}</Untranslated> · {formatFen(row.product.priceFromFen)}
                  </span>
                ),
              }))}
            />
          )}
        </Form.Item>
        {target !== null ? (
          <Form.Item label={t('compare.linkModal.counterpartVariant')}>
            <VariantPick key={rowKey(target)} row={target} value={targetVariant} onChange={setTargetVariant} testId="link-target-variant" />
          </Form.Item>
        ) : null}
      </Form>
      {link.error !== null ? <ProblemAlert explained={explainError(link.error)} testId="link-error" /> : null}
      <div style={{ textAlign: 'right', marginTop: 8 }}>
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={!ready} loading={link.isPending} onClick={submit} data-testid="link-submit">
            {t('compare.linkModal.submit')}
          </Button>
        </Space>
      </div>
    </Modal>
  );
}
