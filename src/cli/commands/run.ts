/**
 * `run`: the suite against one target, then verdicts, waivers, Allure files and the HTML report.
 * Exit: 0 conformant, 1 non-conformant, 2 nothing tested / could not start, 3 internal error.
 */
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DIGESTS_FILE } from '../../harness/report/secret-digests.js';
import { FtfError } from '../../shared/errors.js';
import { assertRunLeakFree, outputDirOf } from '../../harness/report/leak-scan.js';
import { reportPaths } from '../../harness/report/paths.js';
import { REPO_ROOT } from '../../harness/repo-root.js';
import { exitCodeFor, type FailOn } from '../../harness/report/verdicts.js';
import { defaultWaiversFile, loadWaivers } from '../../harness/report/waivers.js';
import { resolveTargetFile } from '../../harness/target/load.js';
import { oneOf, parse, passthroughArgs, regExpFlag, shardFlag, UsageError } from '../args.js';
import { evaluateRun, formatSummary, publishAllure, type Evaluation } from '../pipeline.js';
import { playwright, playwrightArgs, playwrightEnv, type PlaywrightSelection } from '../playwright.js';
import { BLOB_DIR, writeShardManifest } from '../../harness/report/shards.js';
import { isFiltered } from '../../harness/scenario/selection.js';
import { openTarget, type OpenTarget } from '../target.js';
import type { Command } from './types.js';

export const RUN_OPTIONS = {
  target: { type: 'string' },
  grep: { type: 'string' },
  tag: { type: 'string' },
  shard: { type: 'string' },
  'fail-on': { type: 'string' },
  waivers: { type: 'string' },
  'allow-mutations': { type: 'boolean' },
  'no-report': { type: 'boolean' },
  'evaluate-only': { type: 'boolean' },
} as const;

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
    report: boolean;
    /** `merge`: the merged shards' own filter state and problems (missing shards...). */
    filtered?: boolean;
    problems?: string[];
  },
): Promise<SuiteRun> {
  checkWaiversFirst(command, opts.target, opts.waivers);
  const open = await openTarget(opts.target, { probe: !opts.evaluateOnly, forPlaywright: true });
  try {
    const paths = reportPaths();
    const startedAt = new Date().toISOString();
    if (!opts.evaluateOnly) {
      // Results of an earlier run must never leak into this run's verdict, Allure report or certificate evidence.
      rmSync(paths.playwrightJson, { force: true });
      rmSync(paths.junit, { force: true });
      rmSync(paths.har, { recursive: true, force: true });
      rmSync(paths.allureResults, { recursive: true, force: true });
      rmSync(join(paths.root, DIGESTS_FILE), { force: true });
      rmSync(join(paths.root, BLOB_DIR), { recursive: true, force: true });
      // The selection travels to the spec files as FTF_SELECT_* (scenario/selection.ts); a shard writes a blob.
      const env = { ...open.env, ...playwrightEnv(opts.selection), ...(opts.allowMutations ? { FTF_ALLOW_MUTATIONS: '1' } : {}), ...(opts.certification ? { FTF_CERTIFICATION: '1' } : {}) };
      const status = await playwright.run(playwrightArgs(opts.selection), env);
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
      target: open.target,
    });
    console.log(formatSummary(evaluation.summary));
    if (evaluation.summary.overall === 'nothing-tested' && filtered && evaluation.summary.problems.length === 0) console.log(`${command}: the selection (--grep/--tag/--shard) matched no runnable scenario`);
    const note = publishAllure(open.target, evaluation.catalogue, {
      build: opts.report,
      embedded: open.embedded,
      ...(evaluation.summary.implementation ? { implementation: evaluation.summary.implementation } : {}),
    });
    if (note) console.log(note);
    // Every file this run wrote, Allure HTML included, is searched for the run's secrets: a hit is a harness bug (exit 3).
    assertRunLeakFree({
      reportsRoot: paths.root,
      outputDir: outputDirOf(opts.selection.extra ?? [], REPO_ROOT),
      secrets: open.secrets,
      basic: Object.values(open.target.credentials).flatMap((c) => (c.clientId && c.secret !== undefined ? [{ clientId: c.clientId, secret: c.secret }] : [])),
      // --evaluate-only re-reads an earlier run's files: all of them are this verdict's reports.
      ...(opts.evaluateOnly ? {} : { since: Date.parse(startedAt) }),
    });
    return { open, evaluation, startedAt, finishedAt, exitCode: exitCodeFor(evaluation.summary) };
  } catch (e) {
    await open.close();
    throw e;
  }
}

export const runCommand: Command = {
  summary: 'run the conformance suite against a target (default: the embedded reference server)',
  usage: 'run [--target FILE] [--grep RE] [--tag T] [--shard i/n] [--fail-on must|should] [--waivers FILE] [--allow-mutations] [--no-report] [--evaluate-only] [-- playwright args]',
  async run(argv) {
    const dash = argv.indexOf('--');
    const { values: v } = parse('run', dash >= 0 ? argv.slice(0, dash) : argv, RUN_OPTIONS);
    shardFlag('run', v.shard);
    regExpFlag('run', 'grep', v.grep);
    const extra = passthroughArgs('run', dash >= 0 ? argv.slice(dash + 1) : []);
    const suite = await runSuite('run', {
      ...(v.target ? { target: v.target } : {}),
      selection: { ...(v.grep ? { grep: v.grep } : {}), ...(v.tag ? { tag: v.tag } : {}), ...(v.shard ? { shard: v.shard } : {}), extra },
      failOn: oneOf('run', 'fail-on', v['fail-on'], ['must', 'should'] as const, 'must'),
      ...(v.waivers ? { waivers: v.waivers } : {}),
      allowMutations: v['allow-mutations'] ?? false,
      certification: false,
      evaluateOnly: v['evaluate-only'] ?? false,
      report: !(v['no-report'] ?? false),
    });
    await suite.open.close();
    return suite.exitCode;
  },
};

/** A bad waivers file is a usage problem: say so before a server or Playwright starts, not after the run. */
function checkWaiversFirst(command: string, target: string | undefined, waivers: string | undefined): void {
  if (waivers !== undefined && !existsSync(waivers)) throw new UsageError(command, `--waivers file not found: ${resolve(waivers)}`);
  loadWaivers(waivers ?? defaultWaiversFile(target ? resolve(target) : resolveTargetFile()));
}
