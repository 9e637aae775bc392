// Image previews of a case or a message: plain <img>, lazy, loaded from the page's own host
// (merchantImageSrc: core fetches the image within its size and type limits), never from the
// merchant's host, which the page's CSP (img-src 'self') would refuse anyway; a click shows it large.
// Anything but https is named, not loaded.
import { Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { isShowableImage } from '../lib/case-status';
import { merchantImageSrc } from '../../../shared/merchant-image-route';

export function CaseImages({ urls }: { urls: readonly string[] }) {
  const { t } = useI18n();
  const [large, setLarge] = useState<string | null>(null);
  if (urls.length === 0) return null;
  return (
    <>
      <Space wrap size={6} className="case-images">
        {urls.map((url) =>
          isShowableImage(url) ? (
            <button key={url} type="button" className="case-image-button" onClick={() => setLarge(url)} title={url}>
              <img src={merchantImageSrc(url)} alt={t('aftersale.image.preview')} loading="lazy" referrerPolicy="no-referrer" className="case-image-thumb" data-testid="case-image" />
            </button>
          ) : (
            <Typography.Text key={url} type="secondary" className="case-image-skipped">
              {t('join.labelValue', { label: t('aftersale.image.notShown'), value: url })}
            </Typography.Text>
          ),
        )}
      </Space>
      <Modal open={large !== null} footer={null} onCancel={() => setLarge(null)} width={760} title={t('aftersale.image.preview')} destroyOnHidden>
        {large !== null ? <img src={merchantImageSrc(large)} alt={t('aftersale.image.preview')} referrerPolicy="no-referrer" className="case-image-large" /> : null}
      </Modal>
    </>
  );
}
