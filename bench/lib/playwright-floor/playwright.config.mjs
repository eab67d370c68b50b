// The floor of a one-scenario run through Playwright (bench/startup.ts): `playwright test` of one empty test, one
// worker, no reporter, plain JavaScript (no transpiling). No harness code: what any run through Playwright's
// runner costs on this machine before a scenario does anything.
export default { testDir: '.', testMatch: /empty\.spec\.mjs$/, reporter: [['null']], workers: 1 };
