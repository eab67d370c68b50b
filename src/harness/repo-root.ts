/**
 * The repository root, found from this file rather than the working directory so the CLI works from any folder.
 * In an installed package the code runs compiled (dist/, a mirror of the repository layout written by
 * scripts/build-package.mjs): there REPO_ROOT is that dist folder, which holds the specs, schemas, fixtures and the
 * package's own copy of the spec beside the JavaScript (docs/package.md).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

export const REPO_ROOT = resolve(dirname(here), '../..');

/** True when this code runs compiled (the installed package), false when run from TypeScript (the repository). */
export const PACKAGED = here.endsWith('.js');
