/**
 * The embedded reference server's own packages (Fastify and its plugins) are optional peer dependencies of the
 * installed package (docs/package.md "Size"): a vendor testing their own implementation does not install them. What
 * needs the server (the default target, `base_url: embedded`, `reference`, `selftest`, `client`) checks for them
 * first and exits 2 with the one install line, instead of failing on a missing import mid-run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FtfError } from '../shared/errors.js';
import { PACKAGED, REPO_ROOT } from '../harness/repo-root.js';

/** package.json of the repository, or of the installed package (dist/ is REPO_ROOT there). */
function packageJson(): { peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> } {
  const file = join(PACKAGED ? dirname(REPO_ROOT) : REPO_ROOT, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof packageJson>) : {};
}

/** The reference server's packages with their pinned versions (package.json peerDependencies). */
export function referencePackages(): Record<string, string> {
  return packageJson().peerDependencies ?? {};
}

export function missingReferencePackages(resolve: (name: string) => unknown = createRequire(import.meta.url).resolve): string[] {
  return Object.keys(referencePackages()).filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/** Throws FTF_E_RUNTIME_MISSING (exit 2) naming the missing packages and the install line. */
export function assertReferenceInstalled(what: string, missing = missingReferencePackages()): void {
  if (missing.length === 0) return;
  const pinned = Object.entries(referencePackages()).map(([name, version]) => `${name}@${version}`).join(' ');
  throw new FtfError('FTF_E_RUNTIME_MISSING', `${what} needs the embedded reference server, whose packages are not installed: ${missing.join(', ')}`, {
    hint: `they are optional (docs/package.md): \`npm install --omit=dev ${pinned}\` beside the package, or run against your own implementation with --target FILE`,
  });
}
