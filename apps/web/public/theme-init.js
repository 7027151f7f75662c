// Runs synchronously in <head>, before first paint, so the page never flashes the wrong theme.
// Mirrors resolveTheme() in src/theme/theme.ts: the stored 'theme' wins; with nothing stored the
// system preference decides; light otherwise. Kept tiny and dependency-free: it is not bundled.
(function () {
  var theme = 'light';
  try {
    var stored = localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark') {
      theme = stored;
    } else if (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches) {
      theme = 'dark';
    }
  } catch {
    // Storage can be blocked (privacy settings); fall back to light.
  }
  var root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
})();

// [Note: landing hero before the app] (index.html): its English hero shows only at / and only
// when the page starts in English; [Note: dashboard frame before the app] the dashboard's frame,
// in English or German, only at /dashboard's vault list and only on a signed-in device (below);
// [Note: sign-in card before the app] /auth's sign-in card, in English or German, only at its
// sign-in step with nothing but `next` (or mode=signin) in the query (a notice, a pre-filled
// e-mail or another step draws another card), and not on a signed-in device (it goes on to the
// dashboard).
// Mirrors src/i18n/i18n.ts: the language stored in Settings, else the browser's first language we
// have (en, de), else English.
(function () {
  var path = location.pathname;
  var boot = '';
  // Whether this device is signed in: the server's word on this page's request where it gave one
  // ([Note: session hint in Server-Timing] in the server's web/static.ts), else the hint the app
  // left in local storage (a server in front that drops the header, Vite's dev server).
  // Its word on Google sign-in (src/auth/pageHints.ts) puts the Google button in the sign-in card.
  var signedIn = null;
  var google = false;
  try {
    var nav = performance.getEntriesByType('navigation')[0];
    var timings = (nav && nav.serverTiming) || [];
    for (var t = 0; t < timings.length; t++) {
      if (timings[t].name === 'session') signedIn = timings[t].description === '1';
      if (timings[t].name === 'google') google = timings[t].description === '1';
    }
  } catch {
    // No navigation timing: the local hint decides.
  }
  try {
    if (signedIn === null) signedIn = localStorage.getItem('sealvault.signedIn') === '1';
  } catch {
    // Storage blocked: no hint of a session.
  }
  if (path === '/') {
    boot = 'boot-hero';
  } else if (path === '/dashboard') {
    if (signedIn && /^(\?(view=dashboard)?)?$/.test(location.search)) boot = 'boot-dashboard';
  } else if (path === '/auth' && !signedIn) {
    var signIn = true;
    new URLSearchParams(location.search).forEach(function (value, key) {
      if (key !== 'next' && !(key === 'mode' && value === 'signin')) signIn = false;
    });
    if (signIn) boot = 'boot-auth';
  }
  if (!boot) return;
  var codes = [];
  try {
    codes.push(localStorage.getItem('sealvault.language') || '');
  } catch {
    // Storage blocked: the browser's languages decide.
  }
  codes = codes.concat(navigator.languages || [navigator.language || '']);
  var german = false;
  for (var i = 0; i < codes.length; i++) {
    var base = String(codes[i] || '')
      .toLowerCase()
      .split('-')[0];
    if (base === 'de') german = true;
    if (base === 'de' || base === 'en') break;
  }
  if (german && boot === 'boot-hero') return;
  var classes = document.documentElement.classList;
  classes.add(boot);
  if (german) classes.add('boot-de');
  if (google && boot === 'boot-auth') classes.add('boot-google');
  // The same test as auth/passkeySupport.ts.
  if (typeof window.PublicKeyCredential !== 'function') classes.add('boot-no-passkey');
})();
