// Lint for every workspace. The import zones enforce docs/architecture.md ("who may import whom").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const zone = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});
const ws = (name, message) => ({ group: [`@sealvault/${name}`, `@sealvault/${name}/*`], message });

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
      ws('storage', 'packages/crypto imports no workspace package'),
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
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Plain scripts the browser loads as they are: the theme script and the media Service Worker.
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
);
