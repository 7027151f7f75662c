// Entry point. The theme class is already on <html> (public/theme-init.js); the store takes over.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { startSessionCheck } from './auth/sessionPrefetch.ts';
import { i18nReady } from './i18n/i18n.ts';
import { bootHeroPainted, renderFirst } from './landing/bootHeroPaint.ts';
import './index.css';

// A signed-in screen's session check goes out with the entry ([Note: early session check]).
startSessionCheck(location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// Rendered once the language's catalogue is in (at once for English; i18n.ts) and, at the landing
// page, once index.html's hero has been painted ([Note: landing hero before the app]).
void Promise.all([i18nReady, bootHeroPainted()]).then(() => {
  const root = createRoot(container);
  renderFirst(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
