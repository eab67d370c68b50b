/**
 * `ftf-conformance report --scan` over Allure results holding huge tokens (issue 29: with several tokens of
 * 32 KiB+ the report took over 600 s). Two reports folders of the same shape and size, built here: one whose
 * results hold 8 JWT-like tokens of 64 KiB (in messages, step names, trace and attachments) with their digests
 * in secret-digests.json, as a run whose redaction failed would leave them; one with random values of the same
 * length in their place, not registered (the same number of other digests). The figure is the time of the
 * first against the second (Allure's build plus the scan of its HTML): near 1 when tokens cost no more than any
 * other text of their size, i.e. the time is bounded by the size of the results.
 *
 *   npx tsx bench/report-tokens.ts [rounds=3]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from '../src/harness/repo-root.js';
import { addToDigestFile, DIGESTS_FILE } from '../src/harness/report/redaction/secret-digests.js';
import { runBounded } from '../src/selftest/catalogue-run.js';
import type { Benchmark } from './lib/summary.js';

const TOKENS = 8;
const TOKEN_KIB = 64;
const RESULTS = 12;

const jwt = (): string => `eyJhbGciOiJIUzI1NiJ9.${randomBytes(Math.ceil(TOKEN_KIB * 1024 * 0.75)).toString('base64url')}.sig`;

/** A reports folder whose results hold `values` everywhere a leak could put them; `registered`: their digests. */
function reportsWith(values: string[], registered: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ftf-bench-report-'));
  const dir = join(root, 'allure-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'environment.properties'), 'target=bench\nbase_url=http://127.0.0.1:9/api/v1\n');
  const now = Date.now();
  for (let i = 0; i < RESULTS; i++) {
    const attachment = `${randomUUID()}-attachment.txt`;
    writeFileSync(join(dir, attachment), `GET /api/v1/x\nseen: ${values[i % values.length]}\n${values.join('\n')}`);
    writeFileSync(join(dir, `${randomUUID()}-result.json`), JSON.stringify({
      uuid: randomUUID(), historyId: `h${i}`, name: `scenario ${i}`, fullName: `specs/bench.yaml#scenario ${i}`, status: 'failed', stage: 'finished', start: now, stop: now + 5,
      statusDetails: { message: `seen: ${values.join(' ')}`, trace: values[i % values.length] },
      steps: [{ name: `GET with ${values[(i + 1) % values.length]}`, status: 'failed', stage: 'finished', start: now, stop: now + 1, steps: [], attachments: [{ name: 'exchange', source: attachment, type: 'text/plain' }], parameters: [] }],
      attachments: [], parameters: [], labels: [{ name: 'suite', value: 'bench' }], links: [],
    }));
  }
  addToDigestFile(join(root, DIGESTS_FILE), registered);
  return root;
}

const bytesUnder = (dir: string): number => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).reduce((n, d) => n + statSync(join(d.parentPath, d.name)).size, 0);

async function reportMs(root: string): Promise<{ ms: number; code: number | null; stderr: string }> {
  rmSync(join(root, 'allure-report'), { recursive: true, force: true });
  const started = performance.now();
  const r = await runBounded([join(REPO_ROOT, 'bin/ftf-conformance.mjs'), 'report', '--scan'], {
    env: { ...process.env, FTF_REPORTS_DIR: root, FTF_QUARANTINE_DIR: join(root, 'quarantine'), FORCE_COLOR: '0' },
    timeoutMs: 900_000,
  });
  return { ms: performance.now() - started, code: r.exitCode, stderr: r.stderr };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const direct = import.meta.url === `file://${process.argv[1]}`;

export const reportTokensBenchmark: Benchmark = {
  name: 'report-tokens',
  async run({ quick }) {
    const rounds = quick ? 1 : direct && Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 3;
    const tokens = Array.from({ length: TOKENS }, jwt);
    const withTokens = reportsWith(tokens, tokens);
    const plain = reportsWith(Array.from({ length: TOKENS }, jwt), Array.from({ length: TOKENS }, jwt));
    try {
      const size = bytesUnder(join(withTokens, 'allure-results'));
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const leaking = await reportMs(withTokens);
        // The HTML holds the tokens: found, removed, exit 3 (the scan did see them).
        if (leaking.code !== 3) throw new Error(`report --scan over the tokens exited ${leaking.code}, expected 3 (a leak found)`);
        a.push(leaking.ms);
        const clean = await reportMs(plain);
        if (clean.code !== 0) throw new Error(`report --scan over the plain results exited ${clean.code}: ${clean.stderr.slice(-600)}`);
        b.push(clean.ms);
      }
      const detail = `${(median(a) / 1000).toFixed(1)} s vs ${(median(b) / 1000).toFixed(1)} s over ${(size / 2 ** 20).toFixed(1)} MiB of results, ${TOKENS} tokens of ${TOKEN_KIB} KiB (medians of ${rounds})`;
      console.log(`report --scan: ${detail}`);
      return [{ benchmark: 'report-tokens', figure: `report --scan, results holding ${TOKENS} tokens of ${TOKEN_KIB} KiB`, ratio: median(a) / median(b), against: 'the same results with unregistered values of the same size', goal: '<= 1.5', detail }];
    } finally {
      rmSync(withTokens, { recursive: true, force: true });
      rmSync(plain, { recursive: true, force: true });
    }
  },
};

if (direct) {
  for (const f of await reportTokensBenchmark.run({ quick: false })) console.log(`${f.figure}: ${f.ratio?.toFixed(2)}x vs ${f.against} (${f.detail})`);
}
