import { welcomeText, type Locale } from './locale';

export function App({ locale }: { locale: Locale }) {
  const text = welcomeText[locale];
  return (
    <main className="welcome">
      <h1>
        {text.title} <span className="welcome-subtitle">{text.subtitle}</span>
      </h1>
      <p>{text.summary}</p>
    </main>
  );
}
