// Data cache, antd theme (light or dark algorithm, notifications under dialogs) and antd's locale
// (with dayjs's, for the date pickers' month and week names), around the whole app.
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, useState, type ReactNode } from 'react';
import { useLocale } from '../i18n/use-i18n';
import { createQueryClient } from '../queries/query-client';
import { useDarkMode } from '../state/use-preferences';

/**
 * Notifications stack under dialogs and drawers (antd's 1000 and their masks), not over them: a
 * notification never covers a dialog's buttons or the after-sales input (issue 26); while one is
 * open, it shows dimmed behind its mask, and in full over the pages.
 */
export const NOTIFICATION_Z_INDEX = 999;

function ThemedConfig({ children }: { children: ReactNode }) {
  const locale = useLocale();
  const dark = useDarkMode();
  useEffect(() => {
    document.documentElement.lang = locale;
    document.documentElement.dataset['theme'] = dark ? 'dark' : 'light';
  }, [locale, dark]);
  return (
    <ConfigProvider
      locale={locale === 'zh-CN' ? zhCN : enUS}
      theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: '#1677ff', borderRadius: 6 }, components: { Notification: { zIndexPopup: NOTIFICATION_Z_INDEX } } }}
      // antd spaces out a two-character Chinese label ("取 消"); Chinese software writes "取消".
      button={{ autoInsertSpace: false }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ThemedConfig>{children}</ThemedConfig>
    </QueryClientProvider>
  );
}
