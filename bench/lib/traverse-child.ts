/**
 * Child process: the harness side of a traversal, alone in its process so its peak RSS is its own.
 *   engine  the YAML paginate step (bench/scenarios/traverse.yaml; or the first scenario of the folder
 *           FTF_BENCH_SCENARIOS, as bench/real-path.ts does) run by the engine in-process: undici
 *           transport, the recorder (redaction, capped report bodies) with a discarding sink, the real auth
 *           client and the compiled schemas (every event validated), a plain runStep adapter;
 *   bare    a bare undici loop: the same token request and GETs, JSON.parse of every page, nothing else.
 * Gets the launcher's { env } over IPC and resolves the reference profile from it, like a Playwright worker;
 * answers { events, pages, wallMs, cpuMs, maxRssMiB }.
 */
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { runScenario } from '../../src/harness/engine/run.js';
import { wireEngine } from '../../src/harness/engine/wiring.js';
import { createUndiciTransport } from '../../src/harness/http/undici-transport.js';
import { describeProblem, loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { bareGet, bareToken } from './bare.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { loadTargetProfile, REFERENCE_PROFILE } from '../../src/harness/target/load.js';
import type { ResolvedTarget } from '../../src/harness/target/types.js';

interface Config {
  env: Record<string, string>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const mode = process.argv[2] === 'bare' ? 'bare' : 'engine';

const resolveReference = (c: Config): ResolvedTarget => loadTargetProfile(REFERENCE_PROFILE, { env: { ...process.env, ...c.env } });

async function bare(c: Config): Promise<{ events: number; pages: number }> {
  const target = resolveReference(c);
  const token = await bareToken(target);
  let cursor: string | undefined;
  let events = 0;
  let pages = 0;
  for (;;) {
    const url = `${target.baseUrl}/event?limit=1000${cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await bareGet(url, token)) as { events: unknown[]; pageInfo: { hasNextPage: boolean; pageEndCursor: string } };
    pages++;
    events += page.events.length;
    if (!page.pageInfo.hasNextPage) return { events, pages };
    cursor = page.pageInfo.pageEndCursor;
  }
}

/** Engine set-up (profile, scenario loader, schema compilation): timed apart from the traversal. */
async function engine(c: Config, timed: (fn: () => Promise<void>) => Promise<void>): Promise<{ events: number; pages: number }> {
  const target = resolveReference(c);
  const suite = loadScenarioSuite(process.env.FTF_BENCH_SCENARIOS ?? join(HERE, '..', 'scenarios'));
  // bench/scenarios holds more than one scenario (get-holding-200.yaml): the traversal by id; a generated folder
  // (FTF_BENCH_SCENARIOS, the real-path workflows) holds exactly one.
  const scenario = suite.scenarios.find((s) => s.id === 'bench.traverse') ?? (suite.scenarios.length === 1 ? suite.scenarios[0] : undefined);
  if (!scenario) throw new Error(suite.problems.map(describeProblem).join('\n') || `no scenario bench.traverse (nor a single scenario) in ${process.env.FTF_BENCH_SCENARIOS ?? 'bench/scenarios'}`);
  let pages = 0;
  const schemas = schemaRegistry({ paths: target.paths, fields: target.fields });
  const wired = wireEngine({ target, schemas, wire: createUndiciTransport(), sinks: [{ onExchange: (x) => void (x.request.url.includes('/event') && pages++) }] });
  schemas.validator('events-response'); // compile outside the timed part, like a Playwright worker does at start
  let failedChecks = 0;
  await timed(async () => {
    await runScenario(scenario, wired.context({
      runId: 'bench',
      onCheck: (r) => {
        if (!r.passed) failedChecks++;
      },
      runStep: (_title, fn) => fn(),
    }));
  });
  await wired.transport.dispose();
  if (failedChecks) throw new Error(`${failedChecks} check(s) failed during the traversal`);
  return { events: -1, pages };
}

process.once('message', (c: Config) => {
  void (async () => {
    const t0 = performance.now();
    let started = t0;
    let cpu0 = process.cpuUsage();
    let wallMs = 0;
    let cpu = { user: 0, system: 0 };
    const timed = async (fn: () => Promise<void>): Promise<void> => {
      started = performance.now();
      cpu0 = process.cpuUsage();
      await fn();
      wallMs = performance.now() - started;
      cpu = process.cpuUsage(cpu0);
    };
    let r: { events: number; pages: number };
    if (mode === 'bare') {
      let out = { events: 0, pages: 0 };
      await timed(async () => {
        out = await bare(c);
      });
      r = out;
    } else {
      r = await engine(c, timed);
    }
    const setupMs = started - t0;
    process.send?.({ ...r, wallMs, setupMs, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024 }, () => process.exit(0));
  })().catch((e: unknown) => {
    process.send?.({ error: e instanceof Error ? e.message : String(e) }, () => process.exit(1));
  });
});
