/**
 * What one harness process hands the processes it starts (the CLI -> Playwright's runner -> its workers; `selftest`
 * -> its Playwright passes): ONE environment variable, FTF_RUN, JSON read and written only here. Internal: users set
 * the variables of docs/cli.md. A variable rather than a file it names: the runner and the workers inherit it with
 * nothing to create, find or delete, the early runner's go (an environment change) carries it as it is, and every
 * value is small. No secret goes here: a reference server's credentials stay in the worker that launched it, a
 * profile's come through its *_env variables; the grant is a nonce and a file only the issuing CLI vouches for
 * (target/mutation-grant.ts), and the CLI drops an inherited one (cli/playwright.ts). Anything malformed reads as
 * absent, and absent is the safe value (no grant, no cache, the whole selection).
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
  selection?: RunSelection;
  /** `--allow-mutations`: `<nonce>@<grant file>` (target/mutation-grant.ts). */
  grant?: string;
  /** The fault of the embedded reference when the project names none (a hand-run `playwright test`). */
  fault?: string;
  /** Synthetic events the embedded reference is seeded with. */
  events?: number;
  /** The plan file of a `selftest` pass (selftest/plan.ts). */
  plan?: string;
  /** `<code key>:<checkout root>`, computed once per run (user-cache.ts). */
  codeKey?: string;
  /** Digests of the profiles this run already checked (target/validate.ts). */
  profilesChecked?: string[];
  /** The scenario catalogue this run parsed once (scenario/suite-cache.ts). */
  scenarioCache?: string;
}

/** A change: a key given as undefined removes that setting. */
export type RunSettingsPatch = { [K in keyof RunSettings]?: RunSettings[K] | undefined };

const STRINGS = ['grant', 'fault', 'plan', 'codeKey', 'scenarioCache'] as const;
const SELECTION_STRINGS = ['grep', 'tag', 'clause', 'shard', 'phase'] as const;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((e): e is string => typeof e === 'string') : []);
/** The non-empty string fields `keys` of `raw`. */
const stringFields = <K extends string>(raw: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, string>> =>
  Object.fromEntries(keys.flatMap((k) => (typeof raw[k] === 'string' && raw[k] !== '' ? [[k, raw[k]]] : []))) as Partial<Record<K, string>>;

/** The settings in `env`, each checked for its type: a wrong or malformed one reads as absent. */
export function readRunSettings(env: NodeJS.ProcessEnv = process.env): RunSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(env[RUN_ENV] ?? '{}');
  } catch {
    return {};
  }
  if (!isObject(raw)) return {};
  const sel = raw.selection;
  return {
    ...stringFields(raw, STRINGS),
    ...(isObject(sel) ? { selection: { ...stringFields(sel, SELECTION_STRINGS), ...('only' in sel ? { only: { ids: strings(isObject(sel.only) ? sel.only.ids : []), files: strings(isObject(sel.only) ? sel.only.files : []) } } : {}) } } : {}),
    ...(typeof raw.events === 'number' && Number.isSafeInteger(raw.events) && raw.events > 0 ? { events: raw.events } : {}),
    ...(Array.isArray(raw.profilesChecked) ? { profilesChecked: strings(raw.profilesChecked) } : {}),
  };
}

/** The variable for a child's environment: `{ FTF_RUN: <json> }`. */
export const runSettingsEnv = (settings: RunSettings): Record<string, string> => ({ [RUN_ENV]: JSON.stringify(settings) });

/** Applies `patch` to the settings in `env` in place (this process's own, which the processes it starts inherit). */
export function updateRunSettings(env: NodeJS.ProcessEnv, patch: RunSettingsPatch): void {
  const next: Record<string, unknown> = { ...readRunSettings(env) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  env[RUN_ENV] = JSON.stringify(next);
}
