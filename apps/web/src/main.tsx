// Entry point. The theme class is already on <html> (public/theme-init.js); the store takes over.
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { lazyRoutesReady } from './boot/lazyRoutesReady.ts';
import { startSessionCheck } from './auth/sessionPrefetch.ts';
import { keepDashboardFrame } from './auth/signedInHint.ts';
import { i18nReady } from './i18n/i18n.ts';
import { bootHeroPainted, renderFirst } from './landing/bootHeroPaint.ts';
import { routes } from './routes.tsx';
import './index.css';

// A signed-in screen's session check goes out with the entry ([Note: early session check]).
startSessionCheck(location.pathname);
// index.html's dashboard frame, for the guard to draw until the session is known ([Note:
// dashboard frame before the app]); React's first render empties #root.
keepDashboardFrame();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// Rendered once the language's catalogue is in (at once for English; i18n.ts), at the landing
// page once index.html's hero has been painted ([Note: landing hero before the app]), and at a
// lazy screen's path once its code has loaded ([Note: first screen without the spinner]); that
// screen is rendered as a transition, in slices, as the router would have rendered it after its
// spinner: rendered at once it was one long task, which Lighthouse counts as blocking time.
const screenLoaded = lazyRoutesReady(routes, location.pathname);
void Promise.all([i18nReady, bootHeroPainted(), screenLoaded]).then(() => {
  const root = createRoot(container);
  const render = () =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  if (screenLoaded) startTransition(render);
  else renderFirst(render);
});
