// One click between 中文 and English (the full choice, including "follow the system", is in Settings).
import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useI18n } from '../i18n/use-i18n';
import { useChangePreferences } from '../state/use-preferences';

export function LanguageSwitch() {
  const { locale, t } = useI18n();
  const { setLanguage } = useChangePreferences();
  return (
    <Button
      data-testid="language-switch"
      icon={<TranslationOutlined />}
      type="text"
      onClick={() => setLanguage(locale === 'zh-CN' ? 'en' : 'zh-CN')}
    >
      {t('header.switchLanguage')}
    </Button>
  );
}
