/**
 * `run`: the suite against one target, then verdicts, waivers, Allure files and the HTML report.
 * Exit: 0 conformant, 1 non-conformant, 2 nothing tested / could not start, 3 internal error.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DIGESTS_FILE } from '../../harness/report/redaction/secret-digests.js';
import { FtfError } from '../../shared/errors.js';
import { assertRunLeakFree, basicCredentialsOf, cliSecretValues, outputDirOf } from '../../harness/report/redaction/leak-scan.js';
import { leakScanner } from '../../harness/report/redaction/leak-scan-pool.js';
import { discardPrevious } from '../discard-previous.js';
import { reportPaths } from '../../harness/report/reports-folder/paths.js';
import { REPO_ROOT } from '../../harness/repo-root.js';
import { exitCodeFor, type FailOn } from '../../harness/report/verdicts/verdicts.js';
import { parseCoverageGate, type CoverageGate } from '../../harness/report/verdicts/clause-coverage.js';
import { defaultWaiversFile, loadWaivers } from '../../harness/report/verdicts/waivers.js';
import { resolveTargetFile } from '../../harness/target/load.js';
import { transportKind } from '../../harness/http/transport-choice.js';
import { oneOf, parse, passthroughArgs, UsageError, workersFlag } from '../args.js';
import { evaluateRun, formatSummary, publishAllure, startAllureInBackground, type Evaluation } from '../pipeline.js';
import { playwright, playwrightArgs, playwrightEnv, type PlaywrightSelection } from '../playwright.js';
import { BLOB_DIR, writeShardManifest } from '../../harness/report/reports-folder/shards.js';
import { isFiltered } from '../../harness/scenario/selection.js';
import { openTarget, type OpenTarget } from '../target.js';
import { SELECTION_HELP, selectionFlags } from '../scenarios.js';
import { checkShardPhases } from '../shard-guard.js';
import { lastFailedOnly, runTargetOf } from '../last-failed.js';
import { recordLastFailed } from '../../harness/report/outputs/last-failed.js';
import { lockReports } from '../../harness/report/reports-folder/reports-lock.js';
import { refuseSymlinks } from '../../harness/report/reports-folder/reports-symlinks.js';
import { issueMutationGrant, RETIRED_ALLOW_ENV } from '../../harness/target/mutation-grant.js';
import type { FlagHelp } from '../help.js';
import type { Command } from './types.js';
import { BUNDLE, BUNDLED_RUNNER_ENV } from '../../shared/bundle.js';

export const RUN_OPTIONS = {
  target: { type: 'string' },
  grep: { type: 'string' },
  tag: { type: 'string' },
  clause: { type: 'string' },
  shard: { type: 'string' },
  phase: { type: 'string' },
  'fail-on': { type: 'string' },
  waivers: { type: 'string' },
  'allow-mutations': { type: 'boolean' },
  report: { type: 'boolean' },
  'no-report': { type: 'boolean' },
  'wait-report': { type: 'boolean' },
  'evaluate-only': { type: 'boolean' },
  workers: { type: 'string' },
  'min-clauses': { type: 'string' },
  'max-skipped': { type: 'string' },
  'last-failed': { type: 'boolean' },
} as const;

const LAST_FAILED_FLAG: FlagHelp = { flag: '--last-failed', text: 'rerun only the scenarios that failed or errored (warned too under `--fail-on should`) when last run against this target (profile, and base URL of an external one) from this reports folder (reports/last-failed.json, updated by every run); other selection flags narrow it further; nothing recorded or nothing failed exits 2' };
/**
 * The Allure HTML is opt-in: one self-contained index.html of a full run is 12-13 MB (every step and attachment
 * inlined), too much to write on every run of a CI gate; `npm run conformance`, `merge` and `certify` build it.
 */
const REPORT_FLAG: FlagHelp = { flag: '--report', text: 'build the Allure HTML (reports/allure-report/index.html, 12-13 MB for a full run) in the background after the verdict; opt-in (`--wait-report` builds it before exiting)' };

/** Flags run and certify share (help data; src/cli/help.ts renders it). */
export const TARGET_FLAG: FlagHelp = { flag: '--target', value: 'FILE', text: 'target profile (docs/target-profiles.md)', default: 'fixtures/targets/reference.yaml, the embedded reference server', env: 'FTF_TARGET' };
export const SUITE_FLAGS: Record<'failOn' | 'waivers' | 'allowMutations' | 'noReport' | 'waitReport' | 'evaluateOnly' | 'workers' | 'minClauses' | 'maxSkipped', FlagHelp> = {
  minClauses: { flag: '--min-clauses', value: 'N|all-must', text: 'coverage gate: fail (exit 1, listing the clauses not judged) unless at least N clauses were judged, or `all-must`: every must clause of clauses.yaml' },
  maxSkipped: { flag: '--max-skipped', value: 'N', text: 'coverage gate: fail (exit 1, listing them) when more than N scenarios were skipped or not applicable' },
  failOn: { flag: '--fail-on', value: 'must|should', text: '`should` makes should-level warnings fail the run', default: 'must' },
  waivers: { flag: '--waivers', value: 'FILE', text: 'waivers file (see Waivers); a named file that does not exist exits 2', default: '<profile dir>/<profile basename>.waivers.yaml' },
  allowMutations: { flag: '--allow-mutations', text: 'the second opt-in (with `allow_mutations: true` in the profile) for mutating a production target' },
  noReport: { flag: '--no-report', text: 'do not build the Allure HTML (its environment and categories files are still written)' },
  waitReport: { flag: '--wait-report', text: 'build the Allure HTML before exiting (`run --report` builds it in the background after the verdict, and exits without waiting)' },
  evaluateOnly: { flag: '--evaluate-only', text: 'run nothing: evaluate an existing reports/results.json (after `playwright merge-reports`)' },
  workers: { flag: '--workers', value: 'N', text: 'Playwright workers, an integer from 1 to 99', default: '2', env: 'FTF_WORKERS' },
};
export const SUITE_ENV = ['FTF_TARGET', 'FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL', 'FTF_WORKERS', 'FTF_TRANSPORT', 'FTF_SPEC_DIR', 'FTF_SPECS_DIR', 'FTF_CACHE_DIR', 'FTF_REPORTS_DIR',
  'FTF_KILL_GRACE_MS', 'FTF_EMBEDDED_START_MS', 'FTF_CLAUSE_URL', 'FTF_BLOB_REPORT', 'FTF_FC_RUNS', 'FTF_FC_SEED', 'FTF_FC_PATH', 'FTF_FC_END_ON_FAILURE', 'FTF_ALLOW_MUTATIONS', 'FTF_ALLURE_TIMEOUT_MS'];

export interface SuiteRun {
  open: OpenTarget;
  evaluation: Evaluation;
  startedAt: string;
  finishedAt: string;
  exitCode: number;
}

/** Shared by run and certify: runs Playwright (unless evaluateOnly) and evaluates; the caller closes `open`. */
export async function runSuite(
  command: string,
  opts: {
    target?: string;
    selection: PlaywrightSelection;
    failOn: FailOn;
    waivers?: string;
    allowMutations: boolean;
    certification: boolean;
    evaluateOnly: boolean;
    /** Build the Allure HTML: true before returning, 'background' after the verdict and the leak scan (`run`). */
    report: boolean | 'background';
    workers?: string;
    /** `--min-clauses` / `--max-skipped`. */
    coverageGate?: CoverageGate;
    /** `merge`: the merged shards' own filter state and problems (missing shards...). */
    filtered?: boolean;
    problems?: string[];
  },
): Promise<SuiteRun> {
  checkWaiversFirst(command, opts.target, opts.waivers);
  // A bad FTF_TRANSPORT is a usage error before any server or Playwright starts (the workers read it too).
  transportKind();
  // Before anything is started or written: no link in reports/ is written through, one run per reports folder.
  const paths = reportPaths();
  refuseSymlinks(paths.root);
  const lock = lockReports(paths.root, command);
  const open = await openTarget(opts.target, { probe: !opts.evaluateOnly, forPlaywright: true }).catch((e: unknown) => {
    lock.release();
    throw e;
  });
  const retired = retiredOptInNote(opts.allowMutations);
  if (retired) console.log(retired);
  // Scans half of a large reports folder beside this thread (its thread starts only for a large scan).
  const scanner = leakScanner();
  try {
    const startedAt = new Date().toISOString();
    // A run killed outright (SIGKILL) left its lock: its reports, possibly still written by an orphaned runner
    // after it died, were never leak-scanned. They go with the rest of the previous run's.
    const orphaned = lock.stale ? ['playwright-html', 'allure-report', 'verdicts.json', 'outcomes.json'].map((n) => join(paths.root, n)) : [];
    if (lock.stale) console.log(`note   the previous run in ${paths.root} (pid ${lock.stale.pid || '?'}, started ${lock.stale.startedAt}) ended without releasing its lock: its reports are removed unscanned`);
    // Results of an earlier run must never leak into this run's verdict, Allure report or certificate evidence.
    // Moved aside now and deleted while Playwright runs (discard-previous.ts).
    const previous = opts.evaluateOnly ? [] : [paths.playwrightJson, paths.junit, paths.har, paths.allureResults, join(paths.root, DIGESTS_FILE), join(paths.root, BLOB_DIR)];
    const discarded = discardPrevious(paths.root, [...previous, ...orphaned]);
    if (opts.evaluateOnly) await discarded;
    if (!opts.evaluateOnly) {
      // The selection travels to the spec files in the run's settings (FTF_RUN: scenario/selection.ts); a shard writes a blob.
      // --allow-mutations reaches the workers as a grant only this process can issue (mutation-grant.ts):
      // playwright.run drops any inherited one, and the file goes when Playwright ends.
      const grant = opts.allowMutations ? issueMutationGrant() : undefined;
      const env = { ...open.env, ...playwrightEnv(opts.selection, { grant: grant?.value }), ...(opts.workers ? { FTF_WORKERS: opts.workers } : {}), ...(BUNDLE ? BUNDLED_RUNNER_ENV : {}) };
      let status: number | null;
      try {
        status = await playwright.run(playwrightArgs(opts.selection), env);
      } finally {
        grant?.revoke();
      }
      await discarded;
      if (!existsSync(paths.playwrightJson)) {
        throw new FtfError('FTF_E_INTERNAL', `Playwright ended (exit ${status ?? 'killed'}) without writing ${paths.playwrightJson}`, {
          hint: "playwright.config.ts must list ['json', { outputFile: 'reports/results.json' }]; see the output above for the cause",
        });
      }
      // What `merge` needs to know of this run's reports folder: which selection and shard it holds.
      writeShardManifest(paths.root, opts.selection);
    }
    const finishedAt = new Date().toISOString();
    const filtered = opts.filtered ?? isFiltered(opts.selection);
    const evaluation = evaluateRun({
      ...(opts.problems?.length ? { problems: opts.problems } : {}),
      failOn: opts.failOn,
      profileFile: open.file,
      certification: opts.certification,
      filtered,
      ...(opts.waivers ? { waiversFile: opts.waivers } : {}),
      ...(opts.coverageGate ? { coverageGate: opts.coverageGate } : {}),
      target: open.target,
    });
    // What `run --last-failed` against this target from this reports folder reruns (report/outputs/last-failed.ts).
    recordLastFailed(paths.root, runTargetOf(opts.target), evaluation.summary);
    // `reproduce:` lines name this run's profile, the scenario and the variables the profile reads (cli/reproduce.ts).
    console.log(formatSummary(evaluation.summary, { profileFile: open.file, target: open.target, allowMutations: opts.allowMutations, env: process.env }));
    if (evaluation.summary.overall === 'nothing-tested' && filtered && evaluation.summary.problems.length === 0) console.log(`${command}: the selection (--grep/--tag/--shard) matched no runnable scenario`);
    const note = publishAllure(open.target, evaluation.catalogue, {
      build: opts.report === true,
      embedded: open.embedded,
      ...(evaluation.summary.implementation ? { implementation: evaluation.summary.implementation } : {}),
    });
    if (note) console.log(note);
    // Every file this run wrote, Allure HTML included, is searched for the run's secrets: a hit is a harness bug (exit 3).
    const basic = basicCredentialsOf(open.target.credentials);
    const secrets = open.secrets;
    await assertRunLeakFree({
      scanner,
      reportsRoot: paths.root,
      outputDir: outputDirOf(opts.selection.extra ?? [], REPO_ROOT, paths.root),
      secrets,
      basic,
    });
    // The verdict and the exit code are decided: the HTML (searched by the child itself) does not delay them.
    if (opts.report === 'background') console.log(startAllureInBackground(cliSecretValues(secrets, basic), lock));
    return { open, evaluation, startedAt, finishedAt, exitCode: exitCodeFor(evaluation.summary) };
  } catch (e) {
    await open.close();
    lock.release();
    throw e;
  } finally {
    await scanner.close();
  }
}

export const runCommand: Command = {
  summary: 'run the conformance suite against a target (default: the embedded reference server)',
  help: {
    description: 'Runs the YAML scenarios and the paging properties with Playwright, then prints the verdicts and writes reports/ (results.json, junit.xml, verdicts.json, outcomes.json, Allure results; the Allure HTML only with --report, in the background after the verdict, or --wait-report). '
      + 'Flags, the profile and the waivers file are checked before any server or Playwright starts; then base_url and auth_url are probed. '
      + 'Exit 0 conformant, 1 non-conformant, 2 nothing tested or could not start, 3 internal error.',
    flags: [
      TARGET_FLAG,
      ...SELECTION_HELP,
      SUITE_FLAGS.failOn,
      SUITE_FLAGS.minClauses,
      SUITE_FLAGS.maxSkipped,
      SUITE_FLAGS.waivers,
      SUITE_FLAGS.allowMutations,
      REPORT_FLAG,
      { flag: '--no-report', text: 'no Allure HTML (the default of run; kept so scripts that pass it keep working; its environment and categories files are written either way)' },
      SUITE_FLAGS.waitReport,
      SUITE_FLAGS.evaluateOnly,
      SUITE_FLAGS.workers,
      LAST_FAILED_FLAG,
      { flag: '--watch', text: "the author's loop: the same as `ftf-conformance dev` (re-runs each scenario you save, in process, no reports); takes dev's flags only" },
      { flag: '--ui', text: "Playwright's UI mode over the selection (--target, --grep/--tag/--clause, --allow-mutations, --workers): pick, rerun and inspect tests by hand. Always the undici transport (UI mode traces every test; Playwright's request fixture would put Authorization headers into the traces); the reporters write as in a run, and every file left is leak-scanned when the session ends; no verdict, exit code or certificate (run is the gate)" },
      { flag: '--ui-port', value: 'PORT', text: 'with --ui: serve the UI on this port (0: any free one) instead of opening a window; Playwright prints the address' },
      { flag: '--ui-host', value: 'HOST', text: 'with --ui-port: the address to listen on (Playwright\'s default: localhost)' },
      { flag: '--', value: 'PLAYWRIGHT ARGS', text: 'passed to `playwright test` unchanged, only: --retries N, --repeat-each N, --max-failures N, -x, --workers N/-j N, --project NAME, --grep RE/-g, --grep-invert RE/-G, --output DIR, --fail-on-flaky-tests, --forbid-only, --fully-parallel, --pass-with-no-tests, --quiet, --shuffle [SEED], --list, --no-deps; anything else exits 2 (Playwright\'s --last-failed too: use `run --last-failed`)' },
    ],
    env: SUITE_ENV,
    examples: [
      { text: 'the whole suite against the embedded reference server', command: 'ftf-conformance run' },
      { text: 'the token scenarios against a vendor sandbox, one worker', command: 'ftf-conformance run --target my-sandbox.yaml --grep "^token\\." --workers 1' },
      { text: 'then only what failed there', command: 'ftf-conformance run --target my-sandbox.yaml --last-failed' },
    ],
  },
  async run(argv) {
    const dash = argv.indexOf('--');
    // `run --watch` is the author's loop (`dev`): its own flags, no Playwright, no reports.
    const own = dash >= 0 ? argv.slice(0, dash) : argv;
    if (own.includes('--watch')) return (await import('./dev.js')).devCommand.run(argv.filter((a) => a !== '--watch'));
    // `run --ui`: Playwright's UI mode (cli/ui-mode.ts): its own flags, the undici transport, no verdict.
    if (own.some((a) => a === '--ui' || /^--ui-(host|port)(=|$)/.test(a))) return (await import('../ui-mode.js')).runUiCommand(own, dash >= 0);
    const { values: v } = parse('run', own, RUN_OPTIONS);
    const picked = selectionFlags('run', v);
    if (v['last-failed'] && v['evaluate-only']) throw new UsageError('run', '--last-failed reruns scenarios; --evaluate-only runs nothing: give one of them');
    const last = v['last-failed'] ? lastFailedOnly('run', v.target) : undefined;
    const selection = last ? { ...picked, only: last.only } : picked;
    const workers = workersFlag('run', v.workers);
    const coverageGate = parseCoverageGate(v['min-clauses'], v['max-skipped'], (m) => new UsageError('run', m));
    const extra = passthroughArgs('run', dash >= 0 ? argv.slice(dash + 1) : []);
    if (!v['evaluate-only']) checkShardPhases('run', selection, v.target);
    if (last) console.log(last.note);
    const suite = await runSuite('run', {
      ...(v.target ? { target: v.target } : {}),
      selection: { ...selection, extra },
      failOn: oneOf('run', 'fail-on', v['fail-on'], ['must', 'should'] as const, 'must'),
      coverageGate,
      ...(v.waivers ? { waivers: v.waivers } : {}),
      allowMutations: v['allow-mutations'] ?? false,
      certification: false,
      evaluateOnly: v['evaluate-only'] ?? false,
      report: v['wait-report'] ? true : v.report && !v['no-report'] ? 'background' : false,
      ...(workers ? { workers } : {}),
    });
    await suite.open.close();
    return suite.exitCode;
  },
};

/** FTF_ALLOW_MUTATIONS in the environment used to stand in for the flag; it is ignored now, and said so. */
export function retiredOptInNote(flag: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env[RETIRED_ALLOW_ENV] === undefined) return undefined;
  return `note   ${RETIRED_ALLOW_ENV} is set in the environment and ignored: production writes need --allow-mutations on the command line and allow_mutations: true in the profile (this run: --allow-mutations ${flag ? 'given' : 'not given'})`;
}

/** A bad waivers file is a usage problem: say so before a server or Playwright starts, not after the run. */
function checkWaiversFirst(command: string, target: string | undefined, waivers: string | undefined): void {
  if (waivers !== undefined && !existsSync(waivers)) throw new UsageError(command, `--waivers file not found: ${resolve(waivers)}`);
  loadWaivers(waivers ?? defaultWaiversFile(target ? resolve(target) : resolveTargetFile()));
}
