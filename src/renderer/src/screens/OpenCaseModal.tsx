// Opening an after-sales case from an order: the problem (category), a description (1 to 500
// characters, counted as the merchant counts them) and image addresses, checked as typed with the
// rules core applies before anything is sent. The refusal of an order that cannot take a case is
// explained; a create the merchant did not answer is kept and finished by the app. Once opened, the
// case's chat opens.
import { Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { characterCount, checkCaseDraft } from '../../../shared/aftersale-rules';
import { AFTERSALE_CATEGORIES, AFTERSALE_LIMITS } from '../../../shared/ipc/views/aftersales';
import { CaseProblemAlert } from '../components/CaseProblemAlert';
import { ImageUrlFields } from '../components/ImageUrlFields';
import { useI18n } from '../i18n/use-i18n';
import { imageRowProblem, problemAt, ruleText } from '../lib/case-form';
import { categoryLabel } from '../lib/case-status';
import { useOpenCase } from '../queries/aftersales';
import { useOrder } from '../queries/orders';
import { useAftersaleStore } from '../state/aftersale-store';
import { useUiStore } from '../state/ui-store';

function OpenCaseForm({ clientOrderRef, onDone }: { clientOrderRef: string; onDone: (platformCaseRef: string | null) => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const open = useOpenCase();
  // The order drawer this form opens from has it cached: named by the merchant's number, not our ref.
  const order = useOrder(clientOrderRef);
  // Prefilled when opened from a screen that already knows the problem (reconciliation); still editable.
  const prefill = useAftersaleStore((state) => state.formPrefill);
  const [category, setCategory] = useState<string | undefined>(prefill?.category);
  const [description, setDescription] = useState(prefill?.description ?? '');
  const [rows, setRows] = useState<string[]>([]);
  const [tried, setTried] = useState(false);

  const checked = checkCaseDraft({ category: category ?? '', description, images: rows });
  const problems = checked.ok ? [] : checked.problems;
  const categoryProblem = tried ? problemAt(problems, 'category') : null;
  const descriptionProblem = problemAt(problems, 'description');
  const showDescription = descriptionProblem !== null && (tried || descriptionProblem.rule === 'TOO_LONG');
  const rowsFine = rows.every((row) => imageRowProblem(row) === null);

  const submit = (): void => {
    setTried(true);
    if (!checked.ok || !rowsFine) return;
    open.mutate({ clientOrderRef, ...checked.value }, { onSuccess: (detail) => onDone(detail.platformCaseRef) });
  };

  return (
    <Modal
      open
      title={t('aftersale.form.title')}
      onCancel={() => onDone(null)}
      okText={t('aftersale.form.submit')}
      onOk={submit}
      okButtonProps={{ loading: open.isPending, 'data-testid': 'case-submit' }}
      width={600}
      data-testid="case-form-modal"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('aftersale.form.order', { ref: order.data?.platformOrderRef ?? order.data?.productName ?? '' })}
      </Typography.Paragraph>
      {open.error !== null ? (
        <div style={{ marginBottom: 12 }}>
          <CaseProblemAlert error={open.error} context="open" />
        </div>
      ) : null}
      <Form layout="vertical" data-testid="case-form" onSubmitCapture={(event) => event.preventDefault()}>
        <Form.Item
          label={t('aftersale.form.category')}
          required
          validateStatus={categoryProblem !== null ? 'error' : undefined}
          help={categoryProblem !== null ? <span data-testid="case-form-error">{ruleText(categoryProblem.rule, 'category', i18n)}</span> : undefined}
        >
          <Select<string>
            data-testid="case-category"
            value={category}
            placeholder={t('aftersale.form.categoryPlaceholder')}
            onChange={setCategory}
            options={AFTERSALE_CATEGORIES.map((value) => ({ value, label: <span data-testid={`case-category-${value}`}>{categoryLabel(value, i18n)}</span> }))}
          />
        </Form.Item>
        <Form.Item
          label={t('aftersale.form.description')}
          required
          validateStatus={showDescription ? 'error' : undefined}
          help={showDescription && descriptionProblem !== null ? <span data-testid="case-form-error">{ruleText(descriptionProblem.rule, 'description', i18n)}</span> : undefined}
        >
          <Input.TextArea
            data-testid="case-description-input"
            rows={4}
            value={description}
            placeholder={t('aftersale.form.descriptionPlaceholder')}
            count={{ show: true, max: AFTERSALE_LIMITS.descriptionMax, strategy: (value) => characterCount(value.trim()) }}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Form.Item>
        <Form.Item label={t('aftersale.form.images')} extra={t('aftersale.form.imagesHint', { max: AFTERSALE_LIMITS.imagesMax })}>
          <ImageUrlFields rows={rows} onChange={setRows} testIdPrefix="case-form" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function OpenCaseModal() {
  const orderRef = useAftersaleStore((state) => state.formOrderRef);
  const openCaseForm = useAftersaleStore((state) => state.openCaseForm);
  const openCase = useAftersaleStore((state) => state.openCase);
  const openOrder = useUiStore((state) => state.openOrder);
  if (orderRef === null) return null;
  return (
    <OpenCaseForm
      // A fresh form per order.
      key={orderRef}
      clientOrderRef={orderRef}
      onDone={(platformCaseRef) => {
        openCaseForm(null);
        if (platformCaseRef === null) return;
        // The new case's chat takes the order drawer's place (it links back to the order).
        openOrder(null);
        openCase(platformCaseRef);
      }}
    />
  );
}
