// The file browser's downloads (docs/product.md §4 Download): each one, a file or a ZIP of
// several, has its row in the downloads panel (DownloadsPanel.tsx) while it runs, with its percent
// and Cancel; a failure is a toast. A file or folder already on its way is not started twice.
import { useState } from 'react';
import { toast } from 'sonner';
import { messages, userMessage } from '@sealvault/protocol';
import { useLeaveGuard } from '../components/useLeaveGuard.ts';
import type { ActiveDownload } from './DownloadsPanel.tsx';
import { i18n } from '../i18n/i18n.ts';

type Run = (o: { onProgress: (p: number | null) => void; signal: AbortSignal }) => Promise<boolean>;

export function useDownloads() {
  const [downloads, setDownloads] = useState<ActiveDownload[]>([]);
  useLeaveGuard(downloads.length > 0);
  const track = (id: string, name: string, run: Run) => {
    if (downloads.some((d) => d.id === id)) return; // already on its way
    const ctrl = new AbortController();
    let shown: number | null | undefined;
    const show = (percent: number | null) => {
      if (percent === shown) return; // one render per whole percent, not per chunk
      shown = percent;
      setDownloads((all) =>
        all.some((d) => d.id === id)
          ? all.map((d) => (d.id === id ? { ...d, percent } : d))
          : [...all, { id, name, percent, cancel: () => ctrl.abort() }],
      );
    };
    run({ onProgress: show, signal: ctrl.signal })
      .catch((err: unknown) => toast.error(i18n.t(userMessage(err, messages.files.downloadFailed))))
      .finally(() => setDownloads((all) => all.filter((d) => d.id !== id)));
  };
  return { downloads, track };
}
