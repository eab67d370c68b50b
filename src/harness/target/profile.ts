/**
 * Step 1 of the profile pipeline (docs/architecture.md, "Profile -> target"): read the file ONCE with
 * positions, then validate it (schema, then the checks that need only the profile). Nothing here reads the
 * environment or starts anything; every problem names the field and its file:line:column, and all problems
 * of one kind are reported together.
 */
import { FtfError } from '../../shared/errors.js';
import { describeYamlProblem, isMissingModule, readYaml, type YamlSource } from '../yaml/source.js';
import { boundIssues, timeoutsOf, timingOf, timingProblems } from './bounds.js';
import { PROFILE_ERROR_CODES, ProfileError } from './errors.js';
import { checkProfile, type RawProfile } from './semantics.js';
import { validateProfile } from './validate.js';

export const EMBEDDED = 'embedded';

/** A read and validated profile: what the resolver and the embedded launcher work from. */
export interface Profile {
  file: string;
  raw: RawProfile;
  source: YamlSource;
}

export function readProfile(file: string): Profile {
  let source: YamlSource;
  try {
    source = readYaml(file, true);
  } catch (cause) {
    if (isMissingModule(cause)) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    throw new FtfError(PROFILE_ERROR_CODES.notFound, `target profile not found or unreadable: ${file} (${code ?? 'error'})`, {
      hint: 'set FTF_TARGET (or --target) to a profile file (see fixtures/targets/sandbox.example.yaml), or leave it unset to use the embedded reference server',
      location: { file },
      cause,
    });
  }
  if (source.problems.length) {
    throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, source.problems.map((p) => ({ field: '(yaml)', message: describeYamlProblem(p), line: p.line, column: p.column })),
      'fix the YAML syntax (indentation, quotes, colons) at the position shown');
  }
  const value = source.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, [{ field: '(profile)', message: 'a profile is a YAML mapping (name, base_url, auth_url, ...)', line: 1, column: 1 }]);
  }
  const schemaIssues = validateProfile(value, source);
  if (schemaIssues.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, schemaIssues);
  const raw = value as RawProfile;
  const semantic = checkProfile(raw, source);
  const apiKeyIssues = semantic.filter((i) => i.code === PROFILE_ERROR_CODES.apiKeyInProduction);
  if (apiKeyIssues.length) throw new ProfileError(PROFILE_ERROR_CODES.apiKeyInProduction, file, apiKeyIssues);
  if (semantic.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, semantic);
  // Bounds must nest (request < step < scenario): refused at the field at fault (bounds.ts).
  const bounds = boundIssues(timeoutsOf(raw.timeouts), new Set(Object.keys(raw.timeouts ?? {})), (field) => source.locate(['timeouts', field], 'value'));
  if (bounds.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, bounds);
  const timing = timingProblems(timingOf(raw.timing), timeoutsOf(raw.timeouts))
    .map((p) => ({ field: `timing.${p.field}`, message: p.message, hint: p.hint, ...source.locate(['timing', p.field], 'value') }));
  if (timing.length) throw new ProfileError(PROFILE_ERROR_CODES.invalid, file, timing);
  return { file, raw, source };
}

/** True when the profile asks for the harness's own reference server (its base_url says `embedded`). */
export function isEmbedded(profile: Profile): boolean {
  return profile.raw.base_url === EMBEDDED;
}
