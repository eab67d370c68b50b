// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'playwright-report/', 'blob-report/', 'allure-results/', 'allure-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-eval': 'error',
      'no-new-func': 'error',
    },
  },
  // Architecture boundaries: the reference server and the harness never import each other.
  {
    files: ['src/reference/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/harness/**'], message: 'src/reference must not import src/harness (shared code goes in src/shared).' }] }] },
  },
  {
    files: ['src/harness/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/reference/**'], message: 'src/harness must not import src/reference; the harness talks to targets over HTTP only.' }] }] },
  },
);
