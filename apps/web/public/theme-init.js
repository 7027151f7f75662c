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
