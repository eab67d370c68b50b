import { test } from '@playwright/test';

// Deliberately empty: bench/lib/playwright-floor/playwright.config.mjs says why.
test('empty', () => {});
