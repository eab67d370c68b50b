/**
 * `dev` (also `run --watch`): the scenario author's loop. Opens the target once (the embedded reference starts
 * in this process and stays warm), runs the selection, then watches the scenario folder: on every save it
 * reloads the catalogue and re-runs exactly the scenarios whose content changed (their YAML, or a step group
 * they use), printing their verdicts in well under a second on the embedded reference.
 *
 * Scenarios run in process (engine/in-process.ts: the same engine, checks and outcome record as `run`, minus
 * Playwright, whose start-up is what this loop avoids) one after another, so scenarios that need the target to
 * themselves never overlap. It writes no report and is no certificate: `run` is the gate. Property tests
 * (TypeScript) are not part of the loop.
 */
import { watch } from 'node:fs';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runInProcess, type InProcessResult } from '../../harness/engine/in-process.js';
import { createUndiciTransport } from '../../harness/http/undici-transport.js';
import { REPO_ROOT } from '../../harness/repo-root.js';
import { clauseVerdictsOf, scenarioOutcome, summarize, type ScenarioOutcome } from '../../harness/report/verdicts/verdicts.js';
import { describeProblem, loadScenarioSuite, type ScenarioSuite } from '../../harness/scenario/load.js';
import { selectCatalogue, type SelectionFlags } from '../../harness/scenario/selection.js';
import type { Scenario } from '../../harness/scenario/types.js';
import { schemaRegistry } from '../../harness/schemas/registry.js';
import { loadClauseCatalogue, type ClauseCatalogue } from '../../harness/spec/clauses.js';
import { parse } from '../args.js';
import { SELECTION_HELP, selectionFlags } from '../scenarios.js';
import { openTarget } from '../target.js';
import { SUITE_FLAGS, TARGET_FLAG } from './run.js';
import type { Command } from './types.js';

const DEV_OPTIONS = {
  target: { type: 'string' },
  grep: { type: 'string' },
  tag: { type: 'string' },
  clause: { type: 'string' },
  'allow-mutations': { type: 'boolean' },
  once: { type: 'boolean' },
} as const;

/** Saves come in bursts (an editor writes, renames, touches): one re-run per burst. */
const SETTLE_MS = 40;

export const devCommand: Command = {
  summary: "the author's loop: run the selection, then re-run each scenario you save (no reports)",
  help: {
    description: 'Opens the target once (the embedded reference starts in this process and stays warm), runs the selected scenarios, then watches the scenario folder '
      + '(specs/, or FTF_SPECS_DIR): each save re-runs the scenarios whose YAML or step groups changed and prints their verdicts and the clauses they broke. '
      + 'A broken file is reported with file:line:col. Scenarios run one at a time, in process, through the same engine and checks as `run`, without Playwright; '
      + 'nothing is written to reports/ and no certificate is made: `run` is the gate. `run --watch` is the same command. Ctrl-C stops it (exit 130). '
      + 'Exit (with --once): 0 conformant, 1 non-conformant or a broken file, 2 nothing selected.',
    flags: [
      TARGET_FLAG,
      ...SELECTION_HELP.filter((f) => f.flag !== '--shard' && f.flag !== '--phase'),
      SUITE_FLAGS.allowMutations,
      { flag: '--once', text: 'run the selection once and exit with its verdict (no watching)' },
    ],
    env: ['FTF_TARGET', 'FTF_BASE_URL', 'FTF_AUTH_URL', 'FTF_CONTROL_URL', 'FTF_SPEC_DIR', 'FTF_SPECS_DIR'],
    examples: [{ text: 'edit the amount scenarios against the embedded reference', command: 'ftf-conformance dev --grep "^amounts\\."' }],
  },
  async run(argv) {
    const { values: v } = parse('dev', argv, DEV_OPTIONS);
    const flags: SelectionFlags = selectionFlags('dev', v);
    const dir = process.env.FTF_SPECS_DIR ?? join(REPO_ROOT, 'specs');
    const catalogue = loadClauseCatalogue();
    const open = await openTarget(v.target);
    const wire = createUndiciTransport();
    const loop = new AuthorLoop(dir, flags, catalogue, {
      target: open.target,
      schemas: schemaRegistry({ paths: open.target.paths, fields: open.target.fields, records: open.target.records }),
      wire,
      cliAllowsMutations: v['allow-mutations'] === true,
      runIdPrefix: 'dev',
    });
    const close = async (): Promise<void> => {
      await wire.dispose?.();
      await open.close();
    };
    try {
      console.log(`dev: ${open.embedded ? 'the embedded reference' : open.target.name} (${relative(process.cwd(), open.file) || open.file}); scenarios from ${relative(process.cwd(), dir) || dir}`);
      const first = await loop.runChanged('start');
      if (v.once) return first;
      return await loop.watchForever();
    } finally {
      await close();
    }
  },
};

class AuthorLoop {
  /** What each scenario (with its step groups) was when it last ran: a save that changes nothing re-runs nothing. */
  private readonly ran = new Map<string, string>();
  private readonly results = new Map<string, ScenarioOutcome>();
  private brokenFiles = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly flags: SelectionFlags,
    private readonly catalogue: ClauseCatalogue,
    private readonly options: Parameters<typeof runInProcess>[2],
  ) {}

  /** Reloads, runs what changed since the last run, prints; returns the exit code of the current state. */
  async runChanged(why: string): Promise<number> {
    const started = performance.now();
    let suite: ScenarioSuite;
    try {
      suite = loadScenarioSuite(this.dir, { clauses: this.catalogue.byId });
    } catch (e) {
      console.log(`dev: cannot load ${this.dir}: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
    const selected = selectCatalogue(suite, this.dir, this.flags);
    const byId = new Map(suite.scenarios.map((s) => [s.id, s]));
    const tests = selected.scenarios.filter((s) => s.formOf === undefined);
    const changed = tests.filter((s) => this.ran.get(s.id) !== fingerprint(s, byId));
    // A file that stopped loading is reported once per change, with file:line:col, and judged nothing.
    const broken = new Set(selected.problems.map((p) => p.file));
    for (const p of selected.problems) if (!this.brokenFiles.has(p.file) || why !== 'start') console.log(`BROKEN ${rel(p.file)}\n${describeProblem(p).replace(/^/gm, '    ')}`);
    this.brokenFiles = broken;
    // Scenarios removed from the selection (deleted, renamed, no longer matching) leave the tally.
    const live = new Set(tests.map((s) => s.id));
    for (const id of [...this.results.keys()]) {
      if (live.has(id)) continue;
      this.results.delete(id);
      this.ran.delete(id);
    }
    if (tests.length === 0 && selected.problems.length === 0) {
      console.log('dev: the selection matched no scenario');
      return 2;
    }
    for (const scenario of changed) {
      const result = await runInProcess(scenario, byId, this.options);
      const outcome = scenarioOutcome(asScenarioResult(result), this.catalogue);
      this.ran.set(scenario.id, fingerprint(scenario, byId));
      this.results.set(scenario.id, outcome);
      console.log(scenarioLine(outcome, result));
    }
    const summary = summarize([...this.results.values()], this.catalogue);
    const t = summary.totals;
    const broke = summary.clauses.filter((c) => c.verdict === 'failed' || c.verdict === 'in-doubt').map((c) => (c.verdict === 'in-doubt' ? `${c.id} (in doubt)` : c.id));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    console.log(
      `dev: ${changed.length} re-run (${why}) in ${seconds} s; now ${t.passed} passed, ${t.failed} failed, ${t.warning} warnings, ${t.errored} errored, ${t.skipped + t['not-applicable']} skipped`
      + `${broken.size ? `, ${broken.size} broken file${broken.size > 1 ? 's' : ''}` : ''}; clauses broken: ${broke.length ? broke.join(', ') : 'none'}`,
    );
    return broken.size > 0 || summary.overall === 'non-conformant' ? 1 : summary.overall === 'nothing-tested' ? 2 : 0;
  }

  /**
   * Re-runs on every burst of saves, one burst after the other, for as long as the process lives: Ctrl-C ends
   * it through the CLI's signal handling (exit 130, bin/ftf-conformance.mjs); the in-process server goes with it.
   */
  watchForever(): Promise<never> {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    watch(this.dir, { recursive: true }, (_event, file) => {
      if (file !== null && !/\.ya?ml$/.test(String(file))) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(() => this.runChanged('saved'));
      }, SETTLE_MS);
    });
    // Only now: the watches are in place (Node sets them up synchronously), so a save right after this line is seen.
    console.log('dev: watching for saves; Ctrl-C stops');
    return new Promise<never>(() => undefined);
  }
}

/** The scenario as it would run: its steps (with the step groups they use, resolved by the loader) and its clock-less form. */
function fingerprint(s: Scenario, byId: ReadonlyMap<string, Scenario>): string {
  const form = s.clocklessForm === undefined ? undefined : byId.get(s.clocklessForm);
  return JSON.stringify([s, form ?? null]);
}

const rel = (file: string): string => relative(process.cwd(), file) || file;

/** The facts scenarioOutcome reads (the Playwright fields it does not need are left neutral). */
function asScenarioResult(r: InProcessResult): Parameters<typeof scenarioOutcome>[0] {
  const s = r.scenario;
  return {
    id: s.id, title: s.title, file: rel(s.source.file), family: s.family, clauses: s.covers, tags: s.tags, project: 'dev',
    outcome: r.record.status === 'passed' ? 'expected' : r.record.status === 'skipped' || r.record.status === 'not-applicable' ? 'skipped' : 'unexpected',
    lastStatus: r.record.status === 'passed' ? 'passed' : r.record.status === 'skipped' || r.record.status === 'not-applicable' ? 'skipped' : 'failed',
    warnings: r.record.warnings.map((w) => w.message), errors: r.message ? [r.message] : [], record: r.record, durationMs: r.durationMs, retries: 0,
  };
}

function scenarioLine(o: ScenarioOutcome, r: InProcessResult): string {
  const via = r.via ? ` (as ${r.via})` : '';
  const head = `  ${o.verdict.padEnd(14)} ${o.id}${via}  ${r.durationMs} ms`;
  if (o.verdict === 'passed') return head;
  const broke = [...clauseVerdictsOf(o)].filter(([, v]) => v === 'failed' || v === 'warning' || v === 'in-doubt').map(([c, v]) => (v === 'in-doubt' ? `${c}?` : c));
  const lines = [head + (broke.length ? `  clauses: ${broke.join(', ')}` : '')];
  // The whole (redacted) message, as an author needs it: the body excerpt is on its later lines. At most 12 lines.
  const text = r.message ?? o.reason;
  if (text) lines.push(...text.split('\n').filter((l) => l.trim()).slice(0, 12).map((l) => `      ${l}`));
  const where = o.record.location ?? (r.failedAt ? `${rel(r.failedAt.file)}:${r.failedAt.line}:${r.failedAt.column}` : undefined);
  if (where && o.verdict !== 'skipped' && o.verdict !== 'not-applicable') lines.push(`      at ${where}`);
  return lines.join('\n');
}
