// Waits until the browser has painted what was just rendered.
//
// [Note: /auth loads after its first paint]
// The work /auth starts on mounting (the server's auth config with the protocol client and its
// schemas; the passkey autofill with passkeys.ts and its schemas) is not needed to draw the card.
// Started from an effect it can begin before the browser paints the first frame, and then it
// shares the network and the main thread with that paint (Lighthouse counts every request begun
// before the largest paint as on its way). So it waits for the browser's report of a largest
// paint made after the card rendered (reports come once the frame has been shown; a frame
// counted before it was shown is what two requestAnimationFrames still let through); a browser
// that reports none (Safari, or any page after the user's first input, when the reports stop)
// goes on after LATEST_MS.
const LATEST_MS = 500;

export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    let observer: PerformanceObserver | undefined;
    const done = () => {
      observer?.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, LATEST_MS);
    if (
      'PerformanceObserver' in globalThis &&
      PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint')
    ) {
      observer = new PerformanceObserver(done);
      observer.observe({ type: 'largest-contentful-paint' });
    }
  });
}
