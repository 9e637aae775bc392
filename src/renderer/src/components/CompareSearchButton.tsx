// From the catalog's search to the same search across every merchant (the compare screen).
import { SwapOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useUiStore } from '../state/ui-store';

export function CompareSearchButton({ text }: { text: string }) {
  const { t } = useI18n();
  const openCompare = useUiStore((state) => state.openCompare);
  return (
    <Button icon={<SwapOutlined />} onClick={() => openCompare(text.trim())} data-testid="catalog-compare">
      {t('compare.fromCatalog')}
    </Button>
  );
}
