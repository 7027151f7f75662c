// [Note: dashboard frame before the app] (index.html): where index.html showed the dashboard's
// frame, the guard's loading state draws that same frame instead of its spinner, so that a session
// check still out when React first renders does not flash a spinner between the frame and the
// dashboard. It is index.html's own markup, kept by main.tsx before React's first render emptied
// #root (auth/signedInHint.ts), so the two cannot drift apart; screen readers hear the guard's
// loading message (the frame is aria-hidden).
import { useTranslation } from '../i18n/i18n.ts';

export function DashboardLoading({ frame }: { frame: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p role="status" className="sr-only">
        {t('Loading your account...')}
      </p>
      {/* index.html's static markup, no data of anyone's in it. */}
      <div data-testid="dashboard-loading" dangerouslySetInnerHTML={{ __html: frame }} />
    </>
  );
}
