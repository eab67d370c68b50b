/**
 * The bundle this code runs from (bin/bundle.mjs defines the constant when it builds one), or undefined when it runs
 * from the sources (tsx, Playwright's loader) or from dist/. A bundled CLI runs Playwright on the bundled config,
 * which names the bundle's spec shims (specs/.ftf-bundle/<key>/), so that the runner and the workers load the same
 * few JavaScript files, with Playwright's TypeScript loader off.
 */
import { join } from 'node:path';

declare const __FTF_BUNDLE__: { dir: string; key: string } | undefined;

export const BUNDLE: { dir: string; key: string } | undefined = typeof __FTF_BUNDLE__ === 'object' ? __FTF_BUNDLE__ : undefined;

/** `playwright test`'s arguments that select the bundled config (none when not bundled). */
export const bundledConfigArgs = (): string[] => (BUNDLE ? ['--config', join(BUNDLE.dir, 'playwright.config.mjs')] : []);

/** The folder under specs/ of this bundle's spec shims. */
export const bundledSpecsFolder = (key: string): string => `.ftf-bundle/${key}`;

/**
 * The environment of a runner on the bundled config: nothing it loads is TypeScript, so Playwright's ESM loader
 * (a hooks thread per process that every import waits on) is not registered. Saves, one-scenario run: importing the
 * config 342 -> 69 ms in the runner; a worker's start to its config 1,300 -> 644 ms (a timeline of marks, 2026-11-28).
 * PW_DISABLE_TS_ESM is Playwright's own switch (playwright/lib/common: registerESMLoader); a version without it
 * only loads slower.
 */
export const BUNDLED_RUNNER_ENV: Readonly<Record<string, string>> = { PW_DISABLE_TS_ESM: '1' };
