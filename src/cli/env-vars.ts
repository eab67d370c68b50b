/**
 * Every FTF_* environment variable the harness, its scripts and its benchmarks read, in one table: the per-command
 * help lists the ones a command honours by name (help.ts), docs/cli.md's "Environment variables" section is
 * generated from it, and test/cli/help.test.ts fails when code reads a variable that is documented nowhere.
 */
export interface EnvVar {
  name: string;
  text: string;
  /**
   * Who sets it. Default `user`: the table of docs/cli.md. `client`: set by `client run` for the client under test
   * (the contract with it, docs/client-conformance.md). `script`: a knob of this repository's own scripts and
   * benchmarks (a developer's, not the CLI's). `internal`: one harness process for the processes it starts.
   */
  kind?: 'client' | 'script' | 'internal';
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
  { name: 'FTF_CACHE_DIR', text: 'where the parsed scenario catalogue, the parsed clause catalogue, the parsed operation map and the target profiles that passed their check are kept between runs (default `<os tmpdir>/ftf-conformance-cache-<uid>`, private to the user; `off`: parse at every run; scenario/suite-cache.ts). In a clone, `off` also runs the TypeScript sources through tsx instead of the bundle kept in node_modules/.cache/ftf-conformance (bin/bundle.mjs)' },
  { name: 'FTF_REPORTS_DIR', text: 'where reports are read and written (default `reports/`; for the installed package, `reports/` in the working directory)' },
  { name: 'FTF_SIGNING_KEY_FILE', text: 'Ed25519 private key (PKCS#8 PEM) for `certify` (same as `--key`)' },
  { name: 'FTF_QUARANTINE_DIR', text: 'where the leak scan moves report files it found a secret in, before FTF_E_SECRET_LEAK (default `<os tmpdir>/ftf-quarantine-<uid>`, private to the user; report/redaction/quarantine.ts)' },
  { name: 'FTF_KILL_GRACE_MS', text: "how long Playwright gets to stop its workers after a signal (default 10000): past it its workers (its whole process group when it runs in a process of its own) are killed" },
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
  { name: 'FTF_PLAN', text: 'client conformance: the plan the client under test takes', kind: 'client' },
  { name: 'FTF_CLIENT_ID', text: 'client conformance: the client id the client under test authenticates with', kind: 'client' },
  { name: 'FTF_CLIENT_SECRET', text: 'client conformance: its client secret (generated per start)', kind: 'client' },
  { name: 'FTF_ENTITY_CODE', text: 'client conformance: the entity to subscribe for', kind: 'client' },
  { name: 'FTF_SECOND_ENTITY_CODE', text: 'client conformance: the second entity the credential is granted', kind: 'client' },
  { name: 'FTF_FORBIDDEN_ENTITY_CODE', text: 'client conformance: an entity off the allow-list (403)', kind: 'client' },
  { name: 'FTF_INDICATION_CODE', text: 'client conformance: the indication to subscribe in', kind: 'client' },
  { name: 'FTF_AMOUNT', text: 'client conformance: the amount to subscribe, in absolute currency units', kind: 'client' },
  { name: 'FTF_CURRENCY', text: 'client conformance: the currency of the amount', kind: 'client' },
  { name: 'FTF_CHECKPOINT_NAME', text: 'client conformance: the checkpoint name to keep (if the client keeps one)', kind: 'client' },
  { name: 'FTF_SYNC_RUNS', text: 'client conformance: how many event-sync runs to make', kind: 'client' },
  { name: 'FTF_TIME_SCALE', text: 'client conformance: real seconds per plan second (wait N plan seconds = N x FTF_TIME_SCALE real seconds)', kind: 'client' },
  { name: 'FTF_TOKEN_LIFETIME', text: 'client conformance: the access-token lifetime of the plan, seconds (the client still reads expires_in)', kind: 'client' },
  { name: 'FTF_CODE_CLIENT_ID', text: 'client conformance: the Code Authorisation client id', kind: 'client' },
  { name: 'FTF_CODE_CLIENT_SECRET', text: 'client conformance: its client secret (generated per start)', kind: 'client' },
  { name: 'FTF_CODE_USER', text: 'client conformance: the user who consents (login_hint)', kind: 'client' },
  { name: 'FTF_REDIRECT_URI', text: 'client conformance: the redirect URI of the code flow', kind: 'client' },
  { name: 'FTF_REFRESH_CYCLES', text: 'client conformance: how many refresh_token cycles to make', kind: 'client' },
  { name: 'FTF_PROD_BASE_URL', text: 'client conformance: {base_url} of the production-mode grading server', kind: 'client' },
  { name: 'FTF_PROD_AUTH_URL', text: 'client conformance: {auth_url} of the production-mode grading server', kind: 'client' },
  { name: 'FTF_PROD_CLIENT_SECRET', text: 'client conformance: the client secret on the production-mode server', kind: 'client' },
  { name: 'FTF_API_KEY', text: 'client conformance: the sandbox API key the client is given (a plan with an API-key task)', kind: 'client' },
  { name: 'FTF_TASKS_FILE', text: 'client conformance: a file with the plan\'s tasks in words', kind: 'client' },
  { name: 'FTF_ALLOW_MUTATIONS', text: 'ignored (it once stood in for `--allow-mutations`): no variable enables production writes; `run` and `certify` name it in the console when it is set' },
  // Set for the processes a harness process starts, never by hand (except `fault` for a hand-run `playwright test`).
  { name: 'FTF_RUN', kind: 'internal', text: "the run's settings for the processes the CLI (or `selftest`) starts, one JSON object read and written only by src/shared/run-settings.ts: the selection, the `--allow-mutations` grant (dropped when inherited), a `selftest` pass's plan, the code key, the profiles already checked and the parsed scenario catalogue of the run. No secret goes in it. By hand only `FTF_RUN='{\"fault\":\"NAME\"}' npx playwright test`: the embedded reference with a fault (`\"events\":N` seeds N synthetic events)" },
  // Knobs of the repository's own scripts and benchmarks (a clone's developers; the CLI reads none of them).
  { name: 'FTF_TEST_CONCURRENCY', kind: 'script', text: 'scripts/run-self-tests.mjs: self-test files run at once (default 2)' },
  { name: 'FTF_SELF_TEST_GROUPS', kind: 'script', text: 'scripts/run-self-tests.mjs: 0 runs every self-test file in a process of its own (default: light files share a process, 10 at a time)' },
  { name: 'FTF_LOAD_PROCS', kind: 'script', text: 'scripts/test-under-load.mjs: CPU-burning processes beside the self-tests (0-64, default 2)' },
  { name: 'FTF_BUILD_NO_CHECK', kind: 'script', text: '`1`: scripts/build-package.mjs emits dist/ without type-checking (the packed-install self-test; `npm test` type-checks on its own)' },
  { name: 'FTF_STRYKER_SAMPLE', kind: 'script', text: 'scripts/mutation-code.mjs: mutate about N code mutants instead of all (same as `--sample N`; docs/mutation-code.md)' },
  { name: 'FTF_STRYKER_SEED', kind: 'script', text: 'scripts/mutation-code.mjs: the seed of that sample (same as `--seed S`)' },
  { name: 'FTF_MUTATION_TESTS', kind: 'script', text: 'scripts/stryker-runner.mjs (`npm run mutation:code`): a regular expression; only the tests whose id matches run (e.g. `^sandbox:token\\.`)' },
  { name: 'FTF_MUTATION_TEST_CONCURRENCY', kind: 'script', text: "scripts/stryker-runner.mjs: how many of a mutant's tests run side by side, each against a server of its own (default 4; 1 = one after another)" },
  { name: 'FTF_MUTATION_PERSONA_DIR', kind: 'script', text: 'set by `npm run mutation:code` for its runner processes: a folder holding each persona\'s generated profile (`variant-<persona>.yaml`), written before Stryker starts from the unmutated reference, so a static mutant changes the server under test, never the profile the harness reads' },
  { name: 'FTF_MUTATION_TEST_SET', kind: 'script', text: 'scripts/stryker-runner.mjs: the module whose `testSet()` gives the tests (default src/mutation-code/conformance-tests.ts)' },
  { name: 'FTF_STRYKER_CACHE_DIR', kind: 'script', text: "scripts/stryker-test.mjs: where each Stryker test run's private FTF_CACHE_DIR is made (default the os tmpdir)" },
  { name: 'FTF_BENCH_WALK_EVENTS', kind: 'script', text: 'bench/real-walk.ts: synthetic events of the real-path walk (default 1000000, 100000 with --quick)' },
  { name: 'FTF_BENCH_WALK_SCALE', kind: 'script', text: 'bench/walk-scale.ts: the two walk sizes "small,large" in events (default 1000000,10000000; 100000,1000000 with --quick)' },
  { name: 'FTF_BENCH_KEEP', kind: 'script', text: '`1`: bench/real-walk.ts keeps its reports folder' },
  { name: 'FTF_BENCH_CPU_PROF', kind: 'script', text: 'bench/per-request.ts: a folder where every process of the measured runs writes a V8 CPU profile' },
  { name: 'FTF_BENCH_SCENARIOS', kind: 'script', text: "bench: the scenario folder of a bench child's traversal (set by bench/real-path.ts)" },
  { name: 'FTF_BENCH_CLIENT_ID', kind: 'script', text: "bench/lib/bare-one.mjs: the client id of the bare undici baseline (default cc-alice)" },
  { name: 'FTF_BENCH_INDICATION', kind: 'script', text: 'bench/lib/bare-one.mjs: the indication it reads (default FTF-FIX-1M)' },
];

export function envVar(name: string): EnvVar {
  const found = ENV_VARS.find((v) => v.name === name);
  if (!found) throw new Error(`env-vars.ts does not describe ${name}`);
  return found;
}
