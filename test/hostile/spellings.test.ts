/**
 * Secrets stay secret against every spelling a target can choose (issue 29): `ftf-conformance run` (Playwright,
 * the redacting reporter, the Allure HTML, the leak scan, the CLI console) against the spelling stub
 * (spelling-stub.ts), once per transport (FTF_TRANSPORT=undici and playwright). One test per case, each
 * reading the same two runs:
 * - two JWT-like tokens of over 32 KiB: the run ends with a verdict (exit 1), no token in any output;
 * - Sanctum-style `7|…` tokens and tokens under 6 characters, on each transport; on playwright a timed-out
 *   request whose call log carries the Authorization header: none in any output;
 * - the client secret echoed as base64 (inside a longer base64 value), hex, split over two fields, HTML
 *   entities: in no output (console, JUnit, HAR, Allure results and HTML, results.json, test-results);
 * - terminal control bytes in a response body: none reaches the console raw.
 * "No output" = every file under the run's reports and output folders plus the CLI's stdout and stderr,
 * searched in every spelling and inside base64 blobs and embedded zips (canary-search.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { CANARY_GREP, canaryBoundMs, placesUnder, searchCanaries, type Canary, type Place } from './canary-search.js';
import { runCli, type CliRun } from './cli-run.js';
import { hostileEnv, hostileSecrets, loadHostileProfile } from './profile.js';
import { ECHO_KINDS, startSpellingStub, TOKEN_KINDS, type SpellingStub } from './spelling-stub.js';

const WORKERS = 2;
/** The canary's cheap read scenarios, each starting with a token request: more than one turn of the stub's token kinds. */
const GREP = CANARY_GREP;

const secrets = hostileSecrets();
const profile = loadHostileProfile(secrets);
const selected = loadScenarioSuite(join(REPO_ROOT, 'specs')).scenarios.filter((s) => new RegExp(GREP).test(`${s.id}:`)).length;
const OUTER_MS = canaryBoundMs(profile.timeouts.requestMs, selected, WORKERS);

interface Observed {
  run: CliRun;
  stub: SpellingStub;
  places: Place[];
  console: Place[];
}

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function observe(transport: 'undici' | 'playwright'): Promise<Observed> {
  const dir = mkdtempSync(join(tmpdir(), `ftf-spellings-${transport}-`));
  dirs.push(dir);
  const stub = await startSpellingStub(secrets.FTF_HOSTILE_PRIMARY_SECRET as string);
  let run: CliRun;
  try {
    run = await runCli(
      ['run', '--wait-report', '--grep', GREP, '--', `--workers=${WORKERS}`, `--output=${join(dir, 'test-results')}`],
      { ...hostileEnv(stub.url, secrets), FTF_REPORTS_DIR: join(dir, 'reports'), FTF_TRANSPORT: transport, FTF_QUARANTINE_DIR: join(dir, 'quarantine') },
      OUTER_MS,
    );
  } finally {
    await stub.close();
  }
  const consolePlaces = [{ where: 'CLI stdout', text: run.stdout }, { where: 'CLI stderr', text: run.stderr }];
  // The quarantine folder is the leak scan's evidence store, private and never published: not an output.
  return { run, stub, console: consolePlaces, places: [...consolePlaces, ...placesUnder(join(dir, 'reports'), dir), ...placesUnder(join(dir, 'test-results'), dir)] };
}

const tokens = (o: Observed, kind: 'large' | 'sanctum' | 'short'): Canary[] => (o.stub.issued.get(kind) ?? []).map((value) => ({ kind: `${kind} token`, value }));

function ranToAVerdict(o: Observed): void {
  assert.equal(o.run.killed, false, `the run ended within ${OUTER_MS} ms`);
  // 1: non-conformant. 3 would be a crash or the leak scan's FTF_E_SECRET_LEAK.
  assert.equal(o.run.code, 1, `exit code (stdout tail: ${o.run.stdout.slice(-2500)}\nstderr tail: ${o.run.stderr.slice(-1500)})`);
  assert.ok(o.places.some((p) => p.where.endsWith('junit.xml')) && o.places.some((p) => p.where.includes('allure-report')) && o.places.some((p) => p.where.includes('/har/')), 'JUnit, the Allure HTML and HAR files were written and searched');
}

for (const transport of ['undici', 'playwright'] as const) {
  describe(`spellings (${transport} transport, ${selected} scenarios, bound ${OUTER_MS} ms)`, { timeout: 2 * OUTER_MS }, () => {
    let o: Observed;
    before(async () => {
      o = await observe(transport);
    });

    test('the stub served every token kind (the cases below were exercised)', (t) => {
      for (const k of TOKEN_KINDS) assert.ok(o.stub.served.has(k), `served ${k} (served: ${[...o.stub.served].join(', ')})`);
      t.diagnostic(`served: ${[...o.stub.served].join(', ')} (api-echo: a large token echoed by the API; api-stall: a request with a Sanctum/short token left to time out)`);
    });

    test('two tokens of over 32 KiB: the run ends with its verdict, and neither token is in any output', () => {
      ranToAVerdict(o);
      const large = tokens(o, 'large');
      assert.ok(large.length >= 2 && large.every((t) => t.value.length > 32 * 1024), 'tokens of over 32 KiB were issued');
      assert.deepEqual(searchCanaries(large, o.places), []);
    });

    test(`Sanctum-style tokens (7|…) and tokens under 6 characters: in no output${transport === 'playwright' ? ', also through the call log of a timed-out request' : ''}`, () => {
      ranToAVerdict(o);
      const planted = [...tokens(o, 'sanctum'), ...tokens(o, 'short')];
      assert.ok(planted.some((t) => t.value.startsWith('7|') && t.value.length === 42) && planted.some((t) => t.value.length < 6), 'Sanctum and short tokens were issued');
      if (transport === 'playwright') assert.ok(o.places.some((p) => /authorization: Bearer \[REDACTED/i.test(p.text)), 'a call log with the (redacted) Authorization header is in the reports');
      assert.deepEqual(searchCanaries(planted, o.places, 4), []);
    });

    for (const kind of ECHO_KINDS) {
      test(`the client secret echoed by the target (${kind}) is in no output: console, JUnit, HAR, Allure`, () => {
        ranToAVerdict(o);
        const echoed = (o.stub.echoed.get(kind) ?? []).map((value) => ({ kind: `${kind} echo of the client secret`, value }));
        assert.ok(echoed.length > 0);
        assert.deepEqual(searchCanaries(echoed, o.places), []);
      });
    }

    test('control bytes in a response body reach the console escaped, never raw', () => {
      ranToAVerdict(o);
      const text = o.console.map((p) => p.text).join('\n');
      assert.ok(text.includes('click here'), 'the body excerpt did reach the console (the case was exercised)');
      for (const [name, raw] of [['OSC 8 hyperlink', '\u001b]8;;'], ['BEL', '\u0007'], ['NUL', '\u0000'], ['clear screen', '\u001b[2J']] as const) assert.ok(!text.includes(raw), `${name} reached the console raw`);
      assert.match(text, /\\x1b\]8;;https:\/\/evil\.example\/\\x07click here/, 'shown escaped');
    });
  });
}
