/**
 * Judges one hostile-mode run of the catalogue: every scenario failed (or was skipped for a missing
 * capability) with a readable reason within the scenario bound; nothing passed; reports written; no
 * unhandled rejection. Returns the list of problems (empty = the harness coped), so a failing self-test
 * names every defect at once instead of the first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { flattenTests, type CatalogueRun } from '../../src/selftest/catalogue-run.js';
import type { SweepRun } from './sweep.js';

/**
 * A failure message is readable when it names the exchange (method + URL), carries a stable FTF_E_ code, or
 * is a named check (`[fail_if] <the scenario's own message>`) pointing at its scenario line (`at x.yaml:17`):
 * a check over values already read (a `fail_if` on an empty stream) has no exchange of its own to name.
 */
export const READABLE = /FTF_E_[A-Z_]+|\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) https?:\/\/\S+|\[[a-z_]+\] [\s\S]*\bat \S+\.yaml:\d+/;

export interface ModeSummary {
  total: number;
  failed: number;
  skipped: number;
  /** Titles and reasons of skipped scenarios (for the log: a skip must be a missing capability). */
  skips: string[];
  maxScenarioMs: number;
  problems: string[];
}

/**
 * `limitMs` is the per-scenario limit: the profile's scenario bound plus the grace target/bounds.ts derives
 * from it (testTimeoutMs), i.e. Playwright's own test timeout; the engine's scenario bound fires inside it.
 */
export function judgeHostileRun(run: CatalogueRun, bounds: { limitMs: number; outerMs: number }): ModeSummary {
  const problems: string[] = [];
  if (run.killed) problems.push(`the run did not end within its outer bound of ${bounds.outerMs} ms and was killed (a hang)`);
  if (run.exitCode === 0) problems.push('playwright exited 0 against a hostile target');
  const unhandled = /.*(Unhandled|uncaught).*/i.exec(run.stderr) ?? /.*\b(Unhandled (promise )?rejection|uncaughtException)\b.*/i.exec(run.stdout);
  if (unhandled) problems.push(`unhandled error in the console output: ${unhandled[0].slice(0, 300)}`);
  // junit.xml is the CLI's (written from the verdicts after the run); Playwright's own reporters write these.
  if (!existsSync(join(run.reportsDir, 'outcomes.json'))) problems.push('reports/outcomes.json was not written');
  if (!run.results) {
    problems.push('reports/results.json was not written');
    return { total: 0, failed: 0, skipped: 0, skips: [], maxScenarioMs: 0, problems };
  }
  for (const e of run.results.errors ?? []) problems.push(`run-level error (outside any scenario): ${(e.message ?? '').split('\n')[0]}`);
  const tests = flattenTests(run.results);
  if (tests.length === 0) problems.push('no scenario ran');
  let failed = 0;
  let skipped = 0;
  const skips: string[] = [];
  let maxScenarioMs = 0;
  for (const t of tests) {
    maxScenarioMs = Math.max(maxScenarioMs, t.duration);
    if (t.status === 'skipped') {
      skipped++;
      skips.push(`${t.title} (${t.annotations.find((a) => a.type === 'skip')?.description ?? 'no reason'})`);
      continue;
    }
    if (t.status === 'expected' || t.status === 'flaky') {
      problems.push(`PASSED against garbage (harness or scenario defect): ${t.title}`);
      continue;
    }
    failed++;
    if (t.resultStatus === 'timedOut') problems.push(`hit the scenario timeout instead of a harness bound: ${t.title}`);
    if (t.duration > bounds.limitMs) problems.push(`took ${t.duration} ms, over the ${bounds.limitMs} ms per-scenario limit (scenario_ms + grace): ${t.title}`);
    const message = t.messages.join('\n');
    if (!READABLE.test(message)) problems.push(`unreadable failure (no method+URL, no FTF_E_ code): ${t.title}: ${message.split('\n').slice(0, 3).join(' / ').slice(0, 300)}`);
  }
  return { total: tests.length, failed, skipped, skips, maxScenarioMs, problems };
}

/** The in-process sweep's verdict (sweep.ts), by the same rules; an error that is not an FtfError escaped the engine. */
export function judgeSweep(run: SweepRun, bounds: { limitMs: number }): ModeSummary {
  const problems = [...run.unhandled.map((u) => `process-level ${u.split('\n').slice(0, 4).join(' / ')}`)];
  if (run.disposeHung) problems.push('the transport did not close after the mode: a connection outlived every scenario (a hang)');
  let failed = 0;
  let maxScenarioMs = 0;
  const skips: string[] = [];
  for (const r of run.results) {
    maxScenarioMs = Math.max(maxScenarioMs, r.elapsedMs);
    if (r.status === 'skipped') {
      skips.push(`${r.id} (${r.skipReason ?? 'no reason'})`);
      continue;
    }
    if (r.status === 'passed') {
      problems.push(`PASSED against garbage (harness or scenario defect): ${r.id}`);
      continue;
    }
    if (r.status === 'hung') {
      problems.push(`no harness bound fired (${r.text}): ${r.id}`);
      continue;
    }
    failed++;
    if (r.elapsedMs > bounds.limitMs) problems.push(`took ${r.elapsedMs} ms, over the ${bounds.limitMs} ms per-scenario limit (scenario_ms + grace): ${r.id}`);
    if (!r.typed) problems.push(`untyped error (not an FtfError: escaped the engine's error handling): ${r.id}: ${r.text.split('\n')[0]?.slice(0, 300)}`);
    if (!READABLE.test(r.text)) problems.push(`unreadable failure (no method+URL, no FTF_E_ code, no named check at a YAML line): ${r.id}: ${r.text.split('\n').slice(0, 3).join(' / ').slice(0, 300)}`);
  }
  if (failed + skips.length === 0) problems.push('no scenario ran');
  return { total: run.results.length, failed, skipped: skips.length, skips, maxScenarioMs, problems };
}
