// Vite config for the web app. The server (apps/server) serves `dist/` with an SPA fallback and a
// strict CSP (no inline script), so nothing here may inline a script into index.html.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** The text files of a build: what brotli and gzip shrink (images and fonts come compressed). */
const TEXT_FILE = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|wasm|map)$/;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside each text file of the build, where
 * it is smaller than the file: the server sends them to browsers that accept them
 * (apps/server/src/web/static.ts), so the best compression costs nothing per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'sealvault:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs
        .readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .filter((f) => TEXT_FILE.test(f) && !f.startsWith('.vite'));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const data = await fs.promises.readFile(file);
          const copies = await Promise.all([
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
            gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all(
            ['.br', '.gz'].map((ext, i) =>
              copies[i]!.length < data.length
                ? fs.promises.writeFile(file + ext, copies[i]!)
                : Promise.resolve(),
            ),
          );
        }),
      );
    },
  };
}

/**
 * The lazy screens of src/routes.tsx, by the paths that show them (`*` for one segment). Their
 * chunks are known only once the router has run; the server names them in a Link header with the
 * page instead (apps/server/src/web/static.ts), so the browser fetches them beside the entry.
 */
const ROUTE_SCREENS: Record<string, string[]> = {
  '/auth': ['src/screens/AuthScreen.tsx'],
  '/dashboard': ['src/shell/AppShell.tsx', 'src/screens/DashboardScreen.tsx'],
  '/subscription': ['src/shell/AppShell.tsx', 'src/screens/SubscriptionScreen.tsx'],
  '/vault/*': ['src/shell/AppShell.tsx', 'src/screens/VaultScreen.tsx'],
};
const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';
/** ROUTE_PRELOADS_FILE's key for the page's render-blocking files (apps/server/src/web/preloads.ts). */
const RENDER_BLOCKING = 'render-blocking';

/**
 * Writes ROUTE_PRELOADS_FILE: for each path, the chunks its screens need beyond the entry's; and
 * under RENDER_BLOCKING the files index.html's first paint waits for (its stylesheet and
 * public/theme-init.js), which the server names first ([Note: render-blocking files first] in
 * apps/server/src/web/preloads.ts).
 */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'sealvault:route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const withImports = (file: string, into = new Set<string>()): Set<string> => {
        if (into.has(file)) return into;
        into.add(file);
        for (const dep of chunks.find((c) => c.fileName === file)?.imports ?? []) {
          withImports(dep, into);
        }
        return into;
      };
      const entry = new Set<string>();
      for (const c of chunks.filter((c) => c.isEntry)) withImports(c.fileName, entry);
      const preloads: Record<string, string[]> = {};
      for (const [route, screens] of Object.entries(ROUTE_SCREENS)) {
        const files = new Set<string>();
        for (const screen of screens) {
          const chunk = chunks.find((c) => c.facadeModuleId === path.join(root, screen));
          if (!chunk) throw new Error(`route-preloads: no chunk for ${screen} (src/routes.tsx)`);
          withImports(chunk.fileName, files);
        }
        preloads[route] = [...files].filter((f) => !entry.has(f)).map((f) => `/${f}`);
      }
      // The stylesheets of the entry's static imports: index.html links them.
      const page = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
      const css = [...withImports(page?.fileName ?? '')].flatMap((f) => [
        ...(chunks.find((c) => c.fileName === f)?.viteMetadata?.importedCss ?? []),
      ]);
      if (css.length === 0) throw new Error('route-preloads: index.html has no stylesheet');
      preloads[RENDER_BLOCKING] = [...css.map((f) => `/${f}`), '/theme-init.js'];
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: JSON.stringify(preloads, null, 2),
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), routePreloads(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Two documents: the app, and the checkout's own page, the only one whose CSP allows the
      // payment provider's script ([Note: checkout document] in apps/server/src/http/security.ts).
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        checkout: path.resolve(import.meta.dirname, 'checkout.html'),
      },
      output: {
        // React and the router change rarely: their own long-cached chunk. Everything else is
        // split by the lazy routes (routes.tsx), so heavy screens never weigh on the landing page.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
    },
  },
});
