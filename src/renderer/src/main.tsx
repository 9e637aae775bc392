import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { pickLocale } from './locale';
import './styles.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');

const locale = pickLocale(navigator.language);
document.documentElement.lang = locale;

createRoot(container).render(
  <StrictMode>
    <App locale={locale} />
  </StrictMode>,
);
