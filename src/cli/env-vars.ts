/**
 * Every FTF_* environment variable the harness reads, in one table: the per-command help lists the ones a
 * command honours by name (help.ts), docs/cli.md's "Environment variables" table is generated from it, and
 * test/cli/help.test.ts fails when the code reads a variable this table does not describe.
 */
export interface EnvVar {
  name: string;
  text: string;
  /** Set by the CLI for its Playwright child (or by one harness process for another): not for users. */
  internal?: boolean;
}

export const ENV_VARS: readonly EnvVar[] = [
  { name: 'FTF_TARGET', text: 'profile file (same as `--target`)' },
  { name: 'FTF_BASE_URL', text: "overrides the profile's `base_url`" },
  { name: 'FTF_AUTH_URL', text: "overrides the profile's `auth_url`" },
  { name: 'FTF_CONTROL_URL', text: "overrides the profile's `control_url` (sandbox control API)" },
  { name: 'FTF_WORKERS', text: 'Playwright workers of the suite (default 2; `--workers N` sets it)' },
  { name: 'FTF_TRANSPORT', text: "how the suite sends requests: `undici` (default, the undici transport inside the Playwright fixture, cheaper per request: docs/performance.md) or `playwright` (Playwright's `request` fixture); same recording and redaction either way" },
  { name: 'FTF_SPEC_DIR', text: 'folder with `ftf-interface-spec.md` and `clauses.yaml` (default: the installed package\'s own copy `dist/spec`, else `../shared/spec`; docs/package.md)' },
  { name: 'FTF_SPECS_DIR', text: 'scenario folder (default `specs/`)' },
  { name: 'FTF_CACHE_DIR', text: 'where the parsed scenario catalogue, the parsed clause catalogue and the target profiles that passed their check are kept between runs (default `<os tmpdir>/ftf-conformance-cache-<uid>`, private to the user; `off`: parse at every run; scenario/suite-cache.ts)' },
  { name: 'FTF_REPORTS_DIR', text: 'where reports are read and written (default `reports/`; for the installed package, `reports/` in the working directory)' },
  { name: 'FTF_SIGNING_KEY_FILE', text: 'Ed25519 private key (PKCS#8 PEM) for `certify` (same as `--key`)' },
  { name: 'FTF_PRESTART', text: "`0`: `run` and `certify` start Playwright's runner only once the CLI has checked everything, instead of at once beside it (bin/runner-prestart.mjs; the early runner waits for the CLI's go and is killed, having printed nothing, when the run does not start)" },
  { name: 'FTF_QUARANTINE_DIR', text: 'where the leak scan moves report files it found a secret in, before FTF_E_SECRET_LEAK (default `<os tmpdir>/ftf-quarantine-<uid>`, private to the user; report/redaction/quarantine.ts)' },
  { name: 'FTF_KILL_GRACE_MS', text: "how long Playwright's process group gets to stop after a signal before it is killed (default 10000)" },
  { name: 'FTF_ALLURE_TIMEOUT_MS', text: 'bound of the Allure HTML build (`allure generate`) in ms, default 300000: past it the build is killed and FTF_E_ALLURE_TIMEOUT says so (the verdict stands)' },
  { name: 'FTF_EMBEDDED_START_MS', text: 'start-up bound of an embedded reference server, in ms (positive integer)' },
  { name: 'FTF_NO_CONTROL', text: '`1`: the Playwright config adds the opt-in project `no-control` (the reference without the control API; docs/target-profiles.md)' },
  { name: 'FTF_CLIENT_CLAUSE_URL', text: 'link template for CL-* clause ids in the client Allure results, `{id}` replaced (default `client-clauses.yaml#{id}`)' },
  { name: 'FTF_CLAUSE_URL', text: 'link template for clause ids in Allure, `{id}` replaced (default `clauses.yaml#{id}`)' },
  { name: 'FTF_BLOB_REPORT', text: 'set: Playwright also writes a blob report (`reports/blob-report`) for `merge-reports` of sharded runs' },
  { name: 'FTF_FC_RUNS', text: 'runs per fast-check paging property (integer >= 1)' },
  { name: 'FTF_FC_SEED', text: 'fast-check seed (replay a counterexample; printed with a failure)' },
  { name: 'FTF_FC_PATH', text: 'fast-check path of one counterexample, e.g. `3:0:1` (printed with a failure)' },
  { name: 'FTF_FC_END_ON_FAILURE', text: '`1`: stop a property at its first failure without shrinking' },
  { name: 'FTF_FC_COMMANDS', text: 'at most this many commands per run of the model property (integer >= 1)' },
  { name: 'FTF_FC_REPLAY_PATH', text: "fast-check's replayPath of a model-property counterexample (printed with a failure)" },
  // Set by `client run` (and printed by `client serve`) for the client under test: docs/client-conformance.md.
  { name: 'FTF_PLAN', text: 'client conformance: the plan the client under test takes', internal: true },
  { name: 'FTF_CLIENT_ID', text: 'client conformance: the client id the client under test authenticates with', internal: true },
  { name: 'FTF_CLIENT_SECRET', text: 'client conformance: its client secret (generated per start)', internal: true },
  { name: 'FTF_ENTITY_CODE', text: 'client conformance: the entity to subscribe for', internal: true },
  { name: 'FTF_SECOND_ENTITY_CODE', text: 'client conformance: the second entity the credential is granted', internal: true },
  { name: 'FTF_FORBIDDEN_ENTITY_CODE', text: 'client conformance: an entity off the allow-list (403)', internal: true },
  { name: 'FTF_INDICATION_CODE', text: 'client conformance: the indication to subscribe in', internal: true },
  { name: 'FTF_AMOUNT', text: 'client conformance: the amount to subscribe, in absolute currency units', internal: true },
  { name: 'FTF_CURRENCY', text: 'client conformance: the currency of the amount', internal: true },
  { name: 'FTF_CHECKPOINT_NAME', text: 'client conformance: the checkpoint name to keep (if the client keeps one)', internal: true },
  { name: 'FTF_SYNC_RUNS', text: 'client conformance: how many event-sync runs to make', internal: true },
  { name: 'FTF_TIME_SCALE', text: 'client conformance: real seconds per plan second (wait N plan seconds = N x FTF_TIME_SCALE real seconds)', internal: true },
  { name: 'FTF_TOKEN_LIFETIME', text: 'client conformance: the access-token lifetime of the plan, seconds (the client still reads expires_in)', internal: true },
  { name: 'FTF_CODE_CLIENT_ID', text: 'client conformance: the Code Authorisation client id', internal: true },
  { name: 'FTF_CODE_CLIENT_SECRET', text: 'client conformance: its client secret (generated per start)', internal: true },
  { name: 'FTF_CODE_USER', text: 'client conformance: the user who consents (login_hint)', internal: true },
  { name: 'FTF_REDIRECT_URI', text: 'client conformance: the redirect URI of the code flow', internal: true },
  { name: 'FTF_REFRESH_CYCLES', text: 'client conformance: how many refresh_token cycles to make', internal: true },
  { name: 'FTF_PROD_BASE_URL', text: 'client conformance: {base_url} of the production-mode grading server', internal: true },
  { name: 'FTF_PROD_AUTH_URL', text: 'client conformance: {auth_url} of the production-mode grading server', internal: true },
  { name: 'FTF_PROD_CLIENT_SECRET', text: 'client conformance: the client secret on the production-mode server', internal: true },
  { name: 'FTF_TASKS_FILE', text: 'client conformance: a file with the plan\'s tasks in words', internal: true },
  { name: 'FTF_SELECT_GREP', text: 'the selection `--grep` of `run`, for the spec files (scenario/selection.ts)', internal: true },
  { name: 'FTF_SELECT_TAG', text: 'the selection `--tag` of `run`, for the spec files', internal: true },
  { name: 'FTF_SELECT_CLAUSE', text: 'the selection `--clause` of `run`, for the spec files', internal: true },
  { name: 'FTF_SELECT_SHARD', text: 'the selection `--shard` of `run`, for the spec files', internal: true },
  { name: 'FTF_SELECT_PHASE', text: 'the selection `--phase` of `run`, for the spec files', internal: true },
  { name: 'FTF_SELECT_ONLY', text: 'the selection `--last-failed` of `run` (the ids and files that failed last time), for the spec files', internal: true },
  { name: 'FTF_LAUNCH_BROKER', text: "where the CLI's launch broker listens (a Unix socket): a worker asks it for its embedded reference server (src/embedded/broker.ts)", internal: true },
  { name: 'FTF_ALLOW_MUTATIONS', text: 'ignored (it once stood in for `--allow-mutations`): no variable enables production writes; `run` and `certify` name it in the console when it is set' },
  { name: 'FTF_MUTATION_GRANT', text: "`--allow-mutations` for the workers: a nonce and a grant file the CLI writes for this run only, honoured only while that CLI (an ancestor of the worker) lives; an inherited value is dropped (target/mutation-grant.ts)", internal: true },
  { name: 'FTF_CERTIFICATION', text: '`1` in a `certify` run', internal: true },
  { name: 'FTF_REFERENCE_FAULT', text: 'the fault a `selftest` pass injects into the embedded reference', internal: true },
  { name: 'FTF_REFERENCE_EVENTS', text: 'synthetic events the embedded reference is seeded with', internal: true },
  { name: 'FTF_MUTATION_PLAN', text: 'the JSON plan file of a `selftest` pass', internal: true },
  { name: 'FTF_HARNESS_DIGEST', text: 'the checkout and the code key of the harness, computed once per run for the cache entries (user-cache.ts)', internal: true },
  { name: 'FTF_PROFILES_CHECKED', text: 'digests of the target profiles this run already checked against the profile schema (target/validate.ts)', internal: true },
  { name: 'FTF_SCENARIO_CACHE', text: 'the scenario catalogue the run parsed once, for its workers (scenario/suite-cache.ts)', internal: true },
];

export function envVar(name: string): EnvVar {
  const found = ENV_VARS.find((v) => v.name === name);
  if (!found) throw new Error(`env-vars.ts does not describe ${name}`);
  return found;
}
