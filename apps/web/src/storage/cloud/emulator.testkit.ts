// For the cloud providers' browser tests: a caller of an emulator's control API (test tooling,
// e2e/emulators), reached through the test page's origin (vitest.browser.config.ts proxies
// /__dropbox-control, /__drive-control and /__onedrive-control to each emulator's /__emulator).
export function emulatorControl(
  prefix: '/__dropbox-control' | '/__drive-control' | '/__onedrive-control',
) {
  return async (path: string, body?: unknown, method = 'POST') => {
    const res = await fetch(`${prefix}/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`emulator ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
}
