/**
 * What one harness process hands the processes it starts (the CLI -> Playwright's runner -> its workers; `selftest`
 * -> its Playwright passes): ONE environment variable, FTF_RUN, holding JSON that is read and written only here.
 * It is internal: users set the variables of docs/cli.md, never this one.
 *
 * A variable rather than a file it names: the runner and its workers inherit it with nothing to create, find or
 * delete (a file would need a lifetime of its own, and the early runner's go, a change of environment, carries the
 * variable as it is); every value is small (a selection, paths, digests).
 *
 * No secret goes here. The reference server's credentials reach a worker through the launch broker's socket, a
 * profile's through its *_env variables, as before. The mutation grant is a nonce and the path of a file that only
 * the CLI which issued it vouches for (target/mutation-grant.ts); the CLI drops an inherited one (cli/playwright.ts).
 * Anything malformed reads as absent, and absent is always the safe value (no grant, no cache, the whole selection).
 */

export const RUN_ENV = 'FTF_RUN';

/** `run --grep/--tag/--clause/--shard/--phase/--last-failed` (scenario/selection.ts gives them meaning). */
export interface RunSelection {
  grep?: string;
  tag?: string;
  clause?: string;
  shard?: string;
  phase?: string;
  /** Ids and files that failed last time; present but malformed = nothing (a rerun stays narrow). */
  only?: { ids: string[]; files: string[] };
}

export interface RunSettings {
  /** The run's selection, for the spec files (scenario/selection.ts). */
  selection?: RunSelection;
  /** The Unix socket of the CLI's launch broker: a worker asks it for its embedded reference server (embedded/broker.ts). */
  broker?: string;
  /** `--allow-mutations` for the workers: `<nonce>@<grant file>` (target/mutation-grant.ts). */
  grant?: string;
  /** The fault the embedded reference is started with when the project names none (a hand-run `playwright test`). */
  fault?: string;
  /** Synthetic events the embedded reference is seeded with. */
  events?: number;
  /** The JSON plan file of a `selftest` pass (selftest/plan.ts, playwright.mutation.config.ts). */
  plan?: string;
  /** `<code key>:<checkout root>`, computed once per run for the cache entries (user-cache.ts). */
  codeKey?: string;
  /** Digests of the target profiles this run already checked against the profile schema (target/validate.ts). */
  profilesChecked?: string[];
  /** The scenario catalogue this run parsed once, for its workers (scenario/suite-cache.ts). */
  scenarioCache?: string;
}

/** A change: a key given as undefined removes that setting. */
export type RunSettingsPatch = { [K in keyof RunSettings]?: RunSettings[K] | undefined };

const isString = (v: unknown): v is string => typeof v === 'string';
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter(isString) : []);

function readSelection(v: unknown): RunSelection | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const raw = v as Record<string, unknown>;
  const out: RunSelection = {};
  for (const key of ['grep', 'tag', 'clause', 'shard', 'phase'] as const) if (isString(raw[key]) && raw[key] !== '') out[key] = raw[key];
  if ('only' in raw) {
    const only = typeof raw.only === 'object' && raw.only !== null ? (raw.only as Record<string, unknown>) : {};
    out.only = { ids: strings(only.ids), files: strings(only.files) };
  }
  return out;
}

/** The settings in `env` (FTF_RUN), each checked for its type: a wrong or malformed one reads as absent. */
export function readRunSettings(env: NodeJS.ProcessEnv = process.env): RunSettings {
  const text = env[RUN_ENV];
  if (!text) return {};
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    raw = parsed as Record<string, unknown>;
  } catch {
    return {};
  }
  const out: RunSettings = {};
  const selection = readSelection(raw.selection);
  if (selection) out.selection = selection;
  for (const key of ['broker', 'grant', 'fault', 'plan', 'codeKey', 'scenarioCache'] as const) if (isString(raw[key]) && raw[key] !== '') out[key] = raw[key];
  if (typeof raw.events === 'number' && Number.isSafeInteger(raw.events) && raw.events > 0) out.events = raw.events;
  if (Array.isArray(raw.profilesChecked)) out.profilesChecked = strings(raw.profilesChecked);
  return out;
}

/** `settings` with `patch` applied (a key given as undefined is removed). */
export function patchRunSettings(settings: RunSettings, patch: RunSettingsPatch): RunSettings {
  const out: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out as RunSettings;
}

/** The variable for a child's environment: `{ FTF_RUN: <json> }`. */
export function runSettingsEnv(settings: RunSettings): Record<string, string> {
  return { [RUN_ENV]: JSON.stringify(settings) };
}

/** Applies `patch` to the settings in `env` in place (this process's own, which the processes it starts inherit). */
export function updateRunSettings(env: NodeJS.ProcessEnv, patch: RunSettingsPatch): void {
  env[RUN_ENV] = JSON.stringify(patchRunSettings(readRunSettings(env), patch));
}
