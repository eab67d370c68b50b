/**
 * The `reproduce:` line of the console summary: a command that, pasted, runs the same scenario against the same
 * target. It names the profile (`--target`, unless the run used the embedded reference), the scenario by its id
 * (`--grep '^<id>:'`; a broken file by its path), the run's --allow-mutations and, as `NAME=…` placeholders, every
 * environment variable the profile reads a secret from (`*_env`) and the URL overrides the run had set. Never a value.
 */
import { relative } from 'node:path';
import { REFERENCE_PROFILE } from '../harness/target/load.js';
import type { ResolvedTarget } from '../harness/target/types.js';

export interface ReproduceContext {
  /** The profile file of the run. */
  profileFile: string;
  target: Pick<ResolvedTarget, 'credentials'>;
  allowMutations?: boolean;
  /** The URL overrides the run had (FTF_BASE_URL, FTF_AUTH_URL, FTF_CONTROL_URL): named so the paste keeps them. */
  env?: NodeJS.ProcessEnv;
}

const OVERRIDES = ['FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL'] as const;
const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The variable names (never values) the profile reads secrets from. */
export function secretEnvNames(target: Pick<ResolvedTarget, 'credentials'>): string[] {
  const names = Object.values(target.credentials).flatMap((c) => [c.secretEnv, c.refreshTokenEnv, ...Object.values(c.consent?.paramEnv ?? {})]);
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))].sort();
}

/** The command reproducing one scenario (by id) or one broken file (by its path, when `id` is the file's title). */
export function reproduceCommand(scenario: { id: string; title: string; file?: string }, ctx: ReproduceContext): string {
  const embedded = ctx.profileFile === REFERENCE_PROFILE;
  const env = embedded ? [] : [...secretEnvNames(ctx.target), ...OVERRIDES.filter((n) => ctx.env?.[n])].map((n) => `${n}=…`);
  const target = embedded ? [] : ['--target', shellQuote(relative(process.cwd(), ctx.profileFile) || ctx.profileFile)];
  const grep = scenario.title.startsWith('scenario file is invalid: ') ? escapeRegExp(scenario.title.slice('scenario file is invalid: '.length)) : `^${escapeRegExp(scenario.id)}:`;
  return [...env, 'npx ftf-conformance run', ...target, '--grep', shellQuote(grep), ...(ctx.allowMutations ? ['--allow-mutations'] : [])].join(' ');
}
