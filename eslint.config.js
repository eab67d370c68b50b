// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const HARNESS_NOT_REFERENCE = { group: ['**/reference/**'], message: 'src/harness must not import src/reference; the harness talks to targets over HTTP only.' };

export default tseslint.config(
  { ignores: ['node_modules/', 'specs/.ftf-bundle/', 'dist/', 'reports/', '.stryker-tmp/', 'test-results/', 'playwright-report/', 'blob-report/', 'allure-results/', 'allure-report/'] },
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
    rules: { 'no-restricted-imports': ['error', { patterns: [HARNESS_NOT_REFERENCE] }] },
  },
  // Benchmarks use src (and bench/lib), never the self-tests' helpers.
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/test/**'], message: 'bench/ must not import test/: move what both need into src/ or bench/lib/.' }] }] },
  },
  // Layers inside the harness: arrows run one way. The expression language is a leaf (npm + src/shared only);
  // checks/ and scenario/ sit below engine/ and never import it. Later blocks replace the rule's options for
  // their files, so each repeats the harness/reference boundary.
  {
    files: ['src/harness/expressions/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HARNESS_NOT_REFERENCE, { regex: '^\\.\\./(?!\\.\\./shared/)', message: 'src/harness/expressions is a leaf: it imports only npm packages and src/shared.' }] }] },
  },
  {
    files: ['src/harness/checks/**/*.ts', 'src/harness/scenario/**/*.ts', 'src/harness/rules/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HARNESS_NOT_REFERENCE, { group: ['**/engine/**'], message: 'checks/, scenario/ and rules/ sit below engine/: move what both need into a lower module (expressions/, schemas/).' }] }] },
  },
  // report/ by concern (docs/architecture.md): records <- verdicts <- outputs; redaction/ and reports-folder/ are leaves.
  {
    files: ['src/harness/report/records/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HARNESS_NOT_REFERENCE, { group: ['**/report/verdicts/**', '**/report/outputs/**', '../verdicts/**', '../outputs/**'], message: 'report/records/ sits below verdicts/ and outputs/: a record never depends on what is made of it.' }] }] },
  },
  {
    files: ['src/harness/report/verdicts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HARNESS_NOT_REFERENCE, { group: ['**/report/outputs/**', '../outputs/**'], message: 'report/verdicts/ sits below outputs/: verdicts are made from records, outputs from verdicts.' }] }] },
  },
  {
    files: ['src/harness/report/redaction/**/*.ts', 'src/harness/report/reports-folder/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HARNESS_NOT_REFERENCE, { group: ['../records/**', '../verdicts/**', '../outputs/**'], message: 'report/redaction/ and report/reports-folder/ are leaves of report/: they import no record, verdict or output.' }] }] },
  },
);
