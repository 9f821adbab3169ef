import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Features in the order they may depend on each other: a folder imports only from folders listed
 * before it (and from the shared folders), so no two features can depend on each other.
 */
const FEATURE_LAYERS = [
  'audit',
  'auth',
  'venues',
  'plans',
  'radius-packets',
  'idempotency',
  'sessions',
  'unauth-jobs',
  'hotspot-users',
  'nas',
  'batches',
  'operators',
  'guest-access',
  'sms',
  'phone-verification',
  'secrets',
  'radius-config',
  'usage',
  'radius',
  'health',
  'metrics',
  'portal',
  'console',
  'cli',
];
// src/testing holds helpers for specs and test/support; it may use any layer, and only tests import it.
const SHARED = ['common', 'config', 'database', 'web'];

const layerZones = FEATURE_LAYERS.flatMap((feature, index) => {
  const later = FEATURE_LAYERS.slice(index + 1);
  return later.length === 0
    ? []
    : [
        {
          target: `./src/${feature}`,
          from: later.map((name) => `./src/${name}`),
          message: `${feature}/ sits below these features`,
        },
      ];
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: SHARED.map((name) => `./src/${name}`).filter((name) => name !== './src/database'),
              from: FEATURE_LAYERS.map((name) => `./src/${name}`),
              message: 'shared code imports nothing from features',
            },
            ...layerZones,
            {
              target: './src/console',
              from: './src/!(console)/**/*.repository.ts',
              message:
                "the console is presentation only: it calls services (or read models a feature exports), never another feature's repository",
            },
          ],
        },
      ],
    },
  },
  {
    // Fakes implement async interfaces without awaiting anything; the rule guards production code.
    files: ['**/*.spec.ts', 'test/**/*.ts', 'src/testing/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The console's and the portal's own scripts run in the browser.
    files: ['src/console/static/**/*.js', 'src/portal/static/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);
