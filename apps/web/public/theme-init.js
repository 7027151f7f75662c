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
// when the page starts in English. Mirrors src/i18n/i18n.ts: the language stored in Settings,
// else the browser's first language we have (en, de), else English.
(function () {
  if (location.pathname !== '/') return;
  var codes = [];
  try {
    codes.push(localStorage.getItem('sealvault.language') || '');
  } catch {
    // Storage blocked: the browser's languages decide.
  }
  codes = codes.concat(navigator.languages || [navigator.language || '']);
  for (var i = 0; i < codes.length; i++) {
    var base = String(codes[i] || '')
      .toLowerCase()
      .split('-')[0];
    if (base === 'de') return;
    if (base === 'en') break;
  }
  document.documentElement.classList.add('boot-hero');
})();
