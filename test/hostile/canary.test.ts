/**
 * The hostile-target canary, and secrets against every spelling a target can choose (issue 29): the harness as
 * a user runs it (`ftf-conformance run --wait-report`: Playwright with the real reporter stack behind the
 * redacting reporter, the Allure HTML build, the post-run leak scan, the CLI's own console), once per transport
 * (FTF_TRANSPORT=undici and playwright), against the canary stub with its spelling kinds
 * (test/hostile/canary-stub.ts). One run per transport serves every case below, each reading its outputs:
 * - the canary: a stalled body, an endless chunked body, a gzip bomb, stalled token requests and a redirect to
 *   another origin (Playwright's errors for these carry its call log with the Authorization header): no
 *   client secret, Basic credential, API key or issued token in any output; the other origin gets no
 *   Authorization header;
 * - two JWT-like tokens of over 32 KiB: the run ends with its verdict, no token in any output;
 * - Sanctum-style `7|…` tokens and tokens under 6 characters, with timed-out requests (on playwright their call
 *   log carries the Authorization header): in no output;
 * - the client secret echoed as base64 (inside a longer base64 value), hex, cut at a random point over two
 *   fields, HTML entities: in no output;
 * - terminal control bytes in a response body: none reaches the console raw.
 * The author's loop (`ftf-conformance dev --once`, the engine in process, no Playwright) is a third run: its one
 * output is the console, searched the same way.
 * "No output" = every file under the run's reports and output folders plus the CLI's stdout and stderr,
 * searched in every spelling and inside base64 blobs and embedded zips (canary-search.ts). Each case searches
 * first (its own failure says what leaked where), then checks the run ended with its verdict (exit 1).
 * canary-bypass.test.ts proves this search finds the secrets when the boundary is taken away.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { CANARY_GREP, canaryBoundMs, placesUnder, plantedCanaries, searchCanaries, type Canary, type Place } from './canary-search.js';
import { API_BEHAVIOURS, ECHO_KINDS, startCanaryStub, TOKEN_KINDS, type CanaryStub } from './canary-stub.js';
import { runCli, type CliRun } from './cli-run.js';
import { hostileEnv, hostileSecrets, loadHostileProfile } from './profile.js';

const WORKERS = 2;
const secrets = hostileSecrets();
const profile = loadHostileProfile(secrets);
const selected = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.filter((s) => new RegExp(CANARY_GREP).test(`${s.id}:`)).length;
const OUTER_MS = canaryBoundMs(profile.timeouts.requestMs, selected, WORKERS);

interface Observed {
  run: CliRun;
  stub: CanaryStub;
  places: Place[];
  console: Place[];
}

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Mode = 'undici' | 'playwright' | 'dev';

async function observe(mode: Mode): Promise<Observed> {
  const dir = mkdtempSync(join(tmpdir(), `ftf-canary-${mode}-`));
  dirs.push(dir);
  const stub = await startCanaryStub({ spellings: secrets.FTF_HOSTILE_PRIMARY_SECRET as string });
  let run: CliRun;
  try {
    run = await runCli(
      mode === 'dev'
        ? ['dev', '--once', '--grep', CANARY_GREP]
        : // --wait-report: the Allure HTML is built (and searched) before the CLI exits, so this test can search it too.
          ['run', '--wait-report', '--grep', CANARY_GREP, '--', `--workers=${WORKERS}`, `--output=${join(dir, 'test-results')}`],
      { ...hostileEnv(stub.url, secrets), FTF_REPORTS_DIR: join(dir, 'reports'), ...(mode === 'dev' ? {} : { FTF_TRANSPORT: mode }), FTF_QUARANTINE_DIR: join(dir, 'quarantine') },
      OUTER_MS,
    );
  } finally {
    await stub.close();
  }
  const consolePlaces = [{ where: 'CLI stdout', text: run.stdout }, { where: 'CLI stderr', text: run.stderr }];
  // The quarantine folder is the leak scan's evidence store, private and never published: not an output.
  const files = mode === 'dev' ? [] : [...placesUnder(join(dir, 'reports'), dir), ...placesUnder(join(dir, 'test-results'), dir)];
  return { run, stub, console: consolePlaces, places: [...consolePlaces, ...files] };
}

const tokens = (o: Observed, kind: 'large' | 'sanctum' | 'short'): Canary[] => (o.stub.issuedKind.get(kind) ?? []).map((value) => ({ kind: `${kind} token`, value }));

function ranToAVerdict(o: Observed, mode: Mode): void {
  assert.equal(o.run.killed, false, `the run ended within ${OUTER_MS} ms`);
  // 1: non-conformant (every scenario fails against the stub). 3 would be a crash or the leak scan's FTF_E_SECRET_LEAK.
  assert.equal(o.run.code, 1, `exit code (stdout tail: ${o.run.stdout.slice(-2500)}\nstderr tail: ${o.run.stderr.slice(-1500)})`);
  // `dev` writes no report: the console is all it prints, and it printed the verdict of every scenario.
  if (mode === 'dev') return void assert.match(o.run.stdout, /^dev: \d+ re-run \(start\).*clauses broken: (?!none)/m, 'dev printed its summary');
  assert.ok(o.places.some((p) => p.where.endsWith('junit.xml')) && o.places.some((p) => p.where.includes('allure-report')) && o.places.some((p) => p.where.includes('/har/')), 'JUnit, the Allure HTML and HAR files were written and searched');
  assert.ok(o.places.some((p) => p.where.endsWith('results.json')) && o.places.some((p) => p.where.includes('test-results')), 'the JSON report and test-results were searched');
}

// FTF_CANARY_MODES=dev (comma list) runs only those modes (a quick check while working on one of them).
const MODES = (['undici', 'playwright', 'dev'] as const).filter((m) => !process.env.FTF_CANARY_MODES || process.env.FTF_CANARY_MODES.split(',').includes(m));
for (const transport of MODES) {
  describe(`canary and spellings (${transport === 'dev' ? "`dev`, the author's loop" : `${transport} transport`}, ${selected} scenarios, bound ${OUTER_MS} ms)`, { timeout: 2 * OUTER_MS }, () => {
    let o: Observed;
    before(async () => {
      o = await observe(transport);
    });

    test('the stub served every failure and every token kind (the cases below were exercised)', (t) => {
      for (const k of [...API_BEHAVIOURS, ...TOKEN_KINDS, 'token-issued', 'token-stall', 'api-echo', 'api-stall'] as const) assert.ok(o.stub.served.has(k), `served ${k} (served: ${[...o.stub.served].join(', ')})`);
      t.diagnostic(`served: ${[...o.stub.served].join(', ')}`);
    });

    test('canary: no client secret, Basic credential, API key or issued token in any output; no Authorization to the other origin', () => {
      const canaries = [...plantedCanaries(secrets), ...o.stub.issued.map((value) => ({ kind: 'issued token', value }))];
      assert.deepEqual(searchCanaries(canaries, o.places), [], `${canaries.length} canaries searched in ${o.places.length} places`);
      for (const x of o.stub.crossOrigin) assert.equal(x.headers.authorization, undefined, `the other origin received an Authorization header on ${x.path}`);
      // Through Playwright's request fixture the errors are the call-log kind this test is about (a redacted
      // header line is left behind); the undici transport writes no call log.
      if (transport === 'playwright') assert.ok(o.places.some((p) => /authorization: Bearer \[REDACTED/i.test(p.text)), 'a redacted call log (authorization: Bearer [REDACTED…]) is in the reports');
      ranToAVerdict(o, transport);
    });

    test('two tokens of over 32 KiB: neither token is in any output, and the run ends with its verdict', () => {
      const large = tokens(o, 'large');
      assert.ok(large.length >= 2 && large.every((t) => t.value.length > 32 * 1024), 'tokens of over 32 KiB were issued');
      // Redaction built from the tokens held: the scenario given them went on to its API call (a redaction
      // that throws on them ends the scenario before it; the RegExp of old did, its message the tokens).
      assert.ok(o.stub.served.has('api-echo'), 'the scenario holding the large tokens made its API call');
      assert.deepEqual(searchCanaries(large, o.places), []);
      ranToAVerdict(o, transport);
    });

    test(`Sanctum-style tokens (7|…) and tokens under 6 characters: in no output${transport === 'playwright' ? ', also through the call log of a timed-out request' : ''}`, () => {
      const planted = [...tokens(o, 'sanctum'), ...tokens(o, 'short')];
      assert.ok(planted.some((t) => t.value.startsWith('7|') && t.value.length === 42) && planted.some((t) => t.value.length < 6), 'Sanctum and short tokens were issued');
      assert.deepEqual(searchCanaries(planted, o.places, 4), []);
      ranToAVerdict(o, transport);
    });

    for (const kind of ECHO_KINDS) {
      test(`the client secret echoed by the target (${kind === 'split' ? 'cut at a random point over two fields' : kind}) is in no output: console, JUnit, HAR, Allure`, () => {
        const echoed = (o.stub.echoed.get(kind) ?? []).map((value) => ({ kind: `${kind} echo of the client secret`, value }));
        assert.ok(echoed.length > 0);
        // A part of the cut secret is searched with the marks around it (a canary of 3 characters and more).
        assert.deepEqual(searchCanaries(echoed, o.places, kind === 'split' ? 3 : 6), []);
        ranToAVerdict(o, transport);
      });
    }

    test('control bytes in a response body reach the console escaped, never raw', () => {
      const text = o.console.map((p) => p.text).join('\n');
      assert.ok(text.includes('click here'), 'the body excerpt did reach the console (the case was exercised)');
      for (const [name, raw] of [['OSC 8 hyperlink', '\u001b]8;;'], ['BEL', '\u0007'], ['NUL', '\u0000'], ['clear screen', '\u001b[2J']] as const) assert.ok(!text.includes(raw), `${name} reached the console raw`);
      assert.match(text, /\\x1b\]8;;https:\/\/evil\.example\/\\x07click here/, 'shown escaped');
      ranToAVerdict(o, transport);
    });
  });
}
