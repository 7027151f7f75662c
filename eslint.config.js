// Lint for every workspace. The import zones enforce docs/architecture.md ("who may import whom").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';

const zone = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const ws = (name, message) => ({ group: [`@sealvault/${name}`, `@sealvault/${name}/*`], message });

// The same rules by path, so a relative import across workspaces or feature folders is caught
// too (import-x resolves each import to its file).
const web = (dir) => `./apps/web/src/${dir}`;
const pathZones = [
  {
    target: './packages/crypto',
    from: ['./packages/protocol', './apps'],
    message: 'packages/crypto imports nothing in the repo',
  },
  {
    target: './packages/protocol',
    from: ['./packages/crypto', './apps'],
    message: 'packages/protocol imports only zod',
  },
  {
    target: './apps/server',
    from: ['./packages/crypto', './apps/web'],
    message: 'apps/server imports protocol only',
  },
  { target: './apps/web', from: ['./apps/server'], message: 'apps/web never imports apps/server' },
  // Inside apps/web: screens/ holds one composition per route and features never reach into it
  // (they live in their own folders: auth, landing, settings, subscription, vaults...); the shared
  // components, the crypto client and the storage providers depend on no feature.
  {
    target: [
      'admin',
      'archives',
      'auth',
      'components',
      'crypto',
      'files',
      'landing',
      'plans',
      'secrets',
      'settings',
      'shell',
      'storage',
      'subscription',
      'theme',
      'vaults',
    ].map(web),
    from: web('screens'),
    message: 'screens/ holds route compositions: features never import them',
  },
  {
    target: web('components'),
    from: [
      'auth',
      'crypto',
      'files',
      'landing',
      'plans',
      'secrets',
      'settings',
      'shell',
      'storage',
      'subscription',
      'vaults',
    ].map(web),
    message: 'components/ are shared UI and know no feature',
  },
  {
    target: web('archives'),
    from: [
      'auth',
      'crypto',
      'files',
      'landing',
      'plans',
      'secrets',
      'settings',
      'shell',
      'storage',
      'subscription',
      'vaults',
    ].map(web),
    message: 'archives/ reads untrusted archives for any feature and knows none of them',
  },
  {
    target: web('crypto'),
    from: ['files', 'landing', 'plans', 'settings', 'shell', 'storage', 'subscription'].map(web),
    message: 'the crypto client knows no feature but the items and sessions it encrypts for',
  },
  {
    target: web('storage'),
    from: ['crypto', 'files', 'secrets', 'vaults', 'plans', 'shell', 'settings', 'subscription']
      .map(web)
      .concat('./packages/crypto'),
    message:
      'a storage provider moves opaque bytes and depends on nothing of the app but the interface (ADR 0003)',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'e2e/.artifacts/**',
      '**/*.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
    },
  },
  zone(
    ['packages/crypto/**'],
    [
      ws('protocol', 'packages/crypto imports no workspace package'),
      ws('web', 'packages/crypto imports no workspace package'),
      ws('server', 'packages/crypto imports no workspace package'),
    ],
  ),
  zone(
    ['packages/protocol/**'],
    [{ regex: '^(?!zod($|/))[^./]', message: 'packages/protocol imports only zod' }],
  ),
  // The storage providers move opaque bytes (ADR 0003): only the registry that builds them
  // (providers.ts) hands them what they need from the crypto side.
  {
    files: ['apps/web/src/storage/**'],
    ignores: ['**/*.test.ts', 'apps/web/src/storage/providers.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ws('crypto', 'a storage provider moves opaque bytes: never import crypto'),
            ws('server', 'apps/web never imports apps/server'),
            {
              group: ['**/crypto/*', '**/files/*', '**/vaults/*', '**/screens/*'],
              message: 'a storage provider depends on nothing of the app but the interface',
            },
          ],
        },
      ],
    },
  },
  zone(
    ['apps/server/**'],
    [
      ws('crypto', 'apps/server never imports crypto: it only holds ciphertext'),
      ws('web', 'apps/server never imports apps/web'),
    ],
  ),
  zone(['apps/web/**'], [ws('server', 'apps/web never imports apps/server')]),
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'apps/web/src/storage/providers.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: pathZones }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Plain scripts the browser loads as they are: the theme script and the media Service Worker.
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
);
