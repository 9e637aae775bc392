// "Batch from file" (issue 16, contract §13), opened from a variant in the product drawer: pick or
// drop a CSV/XLSX file → map its columns and see every row checked by the order form's rules → confirm
// the batch total and the unit price every order is held to → follow each row live, retry the failed
// rows only, and export the results next to the file's rows. Core reads the file each time (the page
// holds its bytes, never its parsed cells as the truth) and writes the whole batch in one transaction.
import { Alert, Modal, Steps } from 'antd';
import { useState } from 'react';
import { MAX_BATCH_ROWS } from '../../../shared/batch-file';
import { BATCH_FILE_BOUND_WORDS } from '../../../shared/batch-file-bounds';
import type { BatchPreviewView } from '../../../shared/ipc/views/batch';
import { BatchConfirmStep } from '../components/BatchConfirmStep';
import { BatchDuplicatesSummary } from '../components/BatchDuplicatesNotice';
import { BatchFilePick } from '../components/BatchFilePick';
import { InvalidBytesNotice, InvalidBytesRefusal, invalidBytesFacts } from '../components/BatchInvalidBytes';
import { BatchPreviewStep } from '../components/BatchPreviewStep';
import { BatchProgressStep } from '../components/BatchProgressStep';
import { WithMerchantData } from '../components/MerchantText';
import { ProblemAlert } from '../components/ProblemAlert';
import { useI18n } from '../i18n/use-i18n';
import { downloadBase64, type PickedFile } from '../lib/batch-file';
import { decisionOf, NO_CHOICES, placedPreview, type DuplicateChoices } from '../lib/batch-duplicates';
import { explainError } from '../lib/explain-error';
import { newDraftRef } from '../lib/order-draft';
import { useBatchPreview, useBatchStatus, useConfirmBatchPrice, useExportBatch, usePlaceBatch, useRetryBatch } from '../queries/batch';
import { useProduct } from '../queries/catalog';
import { useBatchUiStore, type BatchTarget } from '../state/batch-store';
import { IpcCallError } from '../../../shared/ipc/ipc-result';
import type { InvalidBytesChoice } from '../../../shared/batch-file';
import '../batch.css';

type Step = 'pick' | 'preview' | 'confirm' | 'status';
const STEP_INDEX: Record<Step, number> = { pick: 0, preview: 1, confirm: 2, status: 3 };
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The bounds a file refusal names (contract §13.1). */
const FILE_PROBLEM_WORDS = { ...BATCH_FILE_BOUND_WORDS, maxRows: MAX_BATCH_ROWS };

/** A refusal of the file itself (INVALID_INPUT on `file`): its problem code, which the screen words. */
function fileProblem(error: unknown): string | null {
  if (!(error instanceof IpcCallError)) return null;
  return error.error.fields?.find((field) => field.path === 'file')?.message ?? null;
}

/** `onMark`: read the file again with the rows holding invalid bytes marked (the buyer's choice). */
function ErrorLine({ error, busy, onMark }: { error: unknown; busy: boolean; onMark: () => void }) {
  const { td } = useI18n();
  const problem = fileProblem(error);
  if (problem === 'invalidBytes' && error instanceof IpcCallError) return <InvalidBytesRefusal facts={invalidBytesFacts(error.error.fields ?? [])} busy={busy} onMark={onMark} />;
  if (problem !== null) return <Alert type="error" showIcon style={{ marginTop: 12 }} title={td(`batch.file.${problem}`, 'batch.file.notATable', FILE_PROBLEM_WORDS)} data-testid="batch-file-problem" data-problem={problem} />;
  return <ProblemAlert explained={explainError(error)} testId="batch-problem" />;
}

function BatchBody({ target, onClose }: { target: BatchTarget; onClose: () => void }) {
  const { t, locale } = useI18n();
  const product = useProduct(target.productRef);
  const variant = product.data?.variants.find((v) => v.variantRef === target.variantRef) ?? product.data?.variants[0];
  const [step, setStep] = useState<Step>('pick');
  const [file, setFile] = useState<PickedFile | null>(null);
  const [preview, setPreview] = useState<BatchPreviewView | null>(null);
  const [choices, setChoices] = useState<DuplicateChoices>(NO_CHOICES);
  // A CSV with invalid bytes: refused until the buyer chooses to mark those rows (for this file only).
  const [invalidBytes, setInvalidBytes] = useState<InvalidBytesChoice>('refuse');
  const reading = invalidBytes === 'markRows' ? { invalidBytes } : {};
  // What will be placed: the preview with skipped duplicate rows taken out of its totals.
  const placing = preview === null ? null : placedPreview(preview, choices);
  const [draftRef, setDraftRef] = useState<string>(newDraftRef);
  const [batchId, setBatchId] = useState<string | null>(null);
  const [retryNote, setRetryNote] = useState<string | null>(null);
  const previewCall = useBatchPreview();
  const place = usePlaceBatch();
  const retry = useRetryBatch();
  const confirmPrice = useConfirmBatchPrice();
  const exporter = useExportBatch();
  const status = useBatchStatus(batchId);

  const runPreview = (picked: PickedFile, mapping: Record<string, string> | null, defaultUnits: number | undefined, read: { invalidBytes?: InvalidBytesChoice } = reading): void => {
    previewCall.mutate(
      { file: { fileName: picked.fileName, dataBase64: picked.dataBase64 }, productRef: target.productRef, variantRef: target.variantRef, mapping, ...(defaultUnits === undefined ? {} : { defaultUnits }), ...read },
      {
        onSuccess: (view) => {
          setPreview(view);
          setChoices(NO_CHOICES);
          setStep('preview');
        },
      },
    );
  };
  const wire = file === null ? null : { fileName: file.fileName, dataBase64: file.dataBase64 };
  const pay = (): void => {
    if (wire === null || preview === null || placing === null) return;
    place.mutate(
      {
        file: wire,
        productRef: target.productRef,
        variantRef: target.variantRef,
        mapping: preview.mapping,
        unitPriceFen: preview.unitPriceFen,
        confirmedTotalFen: placing.totals.totalFen,
        confirmedRows: placing.totals.ok,
        draftRef,
        duplicates: decisionOf(preview, choices),
        ...reading,
        ...(preview.mapping['@units'] === undefined ? { defaultUnits: preview.defaultUnits } : {}),
        // The merchant the confirm step named and the buyer agreed to pay (core refuses any other).
        ...(preview.fallback === undefined ? {} : { payToProfileId: preview.fallback.to.profileId }),
      },
      {
        onSuccess: (placed) => {
          setBatchId(placed.batchId);
          setStep('status');
        },
      },
    );
  };
  const error = previewCall.error ?? place.error ?? retry.error ?? confirmPrice.error ?? exporter.error;
  const productName = product.data?.name ?? '';
  return (
    <div data-testid="batch-body">
      <Steps size="small" current={STEP_INDEX[step]} style={{ marginBottom: 16 }} items={[{ title: t('batch.stepFile') }, { title: t('batch.stepMap') }, { title: t('batch.stepConfirm') }, { title: t('batch.stepStatus') }]} />
      {step === 'pick' ? (
        <BatchFilePick
          busy={previewCall.isPending}
          onPicked={(picked) => {
            setFile(picked);
            setInvalidBytes('refuse');
            runPreview(picked, null, undefined, {});
          }}
        />
      ) : null}
      {step === 'preview' && preview !== null ? <InvalidBytesNotice preview={preview} /> : null}
      {step === 'preview' && preview !== null && file !== null ? (
        <BatchPreviewStep
          fileName={file.fileName}
          preview={preview}
          busy={previewCall.isPending}
          choices={choices}
          onChoices={setChoices}
          onMapping={(mapping, defaultUnits) => runPreview(file, mapping, defaultUnits)}
          onBack={() => setStep('pick')}
          onNext={() => {
            setDraftRef(newDraftRef());
            setStep('confirm');
          }}
        />
      ) : null}
      {step === 'confirm' && preview !== null ? <BatchDuplicatesSummary preview={preview} choices={choices} /> : null}
      {step === 'confirm' && placing !== null ? (
        <BatchConfirmStep preview={placing} productName={productName} variantTitle={variant?.title ?? '—'} productType={product.data?.productType ?? null} sending={place.isPending} onBack={() => setStep('preview')} onPay={pay} />
      ) : null}
      {step === 'status' && status.data !== undefined ? (
        <BatchProgressStep
          status={status.data}
          busy={retry.isPending || confirmPrice.isPending || exporter.isPending}
          retryNote={retryNote}
          onRetry={() => {
            if (wire !== null && batchId !== null)
              retry.mutate({ batchId, file: wire }, { onSuccess: (result) => setRetryNote(t('batch.retryDone', { requeued: result.requeued, renewed: result.renewed, skipped: result.skipped.length })) });
          }}
          onConfirmPrice={(unitPriceFen) => {
            if (batchId !== null) confirmPrice.mutate({ batchId, unitPriceFen });
          }}
          onExport={(format) => {
            if (wire !== null && batchId !== null)
              exporter.mutate({ batchId, file: wire, format, language: locale }, { onSuccess: (out) => downloadBase64(out.fileName, out.dataBase64, format === 'csv' ? 'text/csv' : XLSX_TYPE) });
          }}
          onClose={onClose}
        />
      ) : null}
      {error !== null ? (
        <ErrorLine
          error={error}
          busy={previewCall.isPending}
          onMark={() => {
            if (file === null) return;
            setInvalidBytes('markRows');
            runPreview(file, null, undefined, { invalidBytes: 'markRows' });
          }}
        />
      ) : null}
    </div>
  );
}

export function BatchFileModal() {
  const { t } = useI18n();
  const target = useBatchUiStore((state) => state.target);
  const open = useBatchUiStore((state) => state.open);
  const product = useProduct(target?.productRef ?? null);
  const close = (): void => open(null);
  return (
    <Modal
      open={target !== null}
      onCancel={close}
      footer={null}
      width={960}
      destroyOnHidden
      maskClosable={false}
      title={<WithMerchantData text={t('batch.title', { product: product.data?.name ?? '' })} data={[product.data?.name]} />}
      data-testid="batch-modal"
    >
      {target !== null ? <BatchBody key={`${target.productRef}:${target.variantRef}`} target={target} onClose={close} /> : null}
    </Modal>
  );
}
