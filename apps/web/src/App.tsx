// The app root: server-state cache, the router and the one toast area.
//
// [Note: toasts after the first paint]
// The toast area (components/Toaster.tsx, with sonner: about 10 KiB compressed, and the style
// sheet sonner inserts when it loads) shows nothing until something is done on a screen, and every
// toast comes from a screen loaded later. So it loads once the first screen has painted
// (auth/afterPaint.ts), not with the entry that the landing page and the dashboard wait for (issue
// 31). A toast raised before it has mounted is not lost: sonner's Toaster shows the toasts still
// active when it subscribes.
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { afterPaint } from './auth/afterPaint.ts';
import { createQueryClient } from './queryClient.ts';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

const Toaster = lazy(async () => {
  await afterPaint();
  return { default: (await import('./components/Toaster.tsx')).Toaster };
});

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
