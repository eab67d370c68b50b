/**
 * Redaction speed: the Redactor (literal multi-needle search, src/harness/http/redactor.ts) against the one it
 * replaced (one RegExp of every spelling, bench/lib/legacy-redactor.ts), measured in the same run on the same
 * texts with normal-sized secrets (a 24-character hex client secret, an API key, two 43-character tokens): a
 * 64 KiB event page (what the recorder keeps of a body) and a request line with headers. Then the new one with
 * two 40 KiB JWT-like tokens, which the old one cannot hold at all (its RegExp exceeds V8's limit).
 *
 *   npx tsx bench/redaction.ts [seconds-per-measure=1]
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redactor } from '../src/harness/http/redactor.js';
import { Redactor as LegacyRedactor } from './lib/legacy-redactor.js';
import type { Benchmark, Figure } from './lib/summary.js';

interface Redacts {
  addSecret(value: string, label: string): boolean;
  redactText(text: string): string;
}

const normalSecrets = (): string[] => [randomBytes(12).toString('hex'), randomBytes(24).toString('base64url'), randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];

function page(): string {
  const events = Array.from({ length: 400 }, (_, i) => ({ uid: `evt-${i}-${randomBytes(6).toString('hex')}`, type: 'SubscriptionCreated', entityCode: 'ENT-ALPHA', amount: '1000000.00', createdAt: new Date(1_700_000_000_000 + i).toISOString() }));
  return JSON.stringify({ events, pageInfo: { hasNextPage: true, pageEndCursor: randomBytes(16).toString('base64url') } }).slice(0, 64 * 1024);
}

const requestLine = (): string => `GET https://sandbox.vendor.example/api/v1/event?limit=1000&start_cursor=${randomBytes(16).toString('base64url')} accept: application/json user-agent: ftf-conformance`;

/** Characters redacted per second, over about `seconds`. */
function throughput(r: Redacts, texts: string[], seconds: number): number {
  let chars = 0;
  const start = performance.now();
  let i = 0;
  while (performance.now() - start < seconds * 1000) {
    const t = texts[i++ % texts.length] as string;
    r.redactText(t);
    chars += t.length;
  }
  return chars / ((performance.now() - start) / 1000);
}

function withSecrets<T extends Redacts>(r: T, secrets: string[]): T {
  secrets.forEach((s, i) => r.addSecret(s, `FTF_SECRET_${i}`));
  return r;
}

const mb = (x: number): string => `${(x / 1e6).toFixed(1)} M chars/s`;

const direct = import.meta.url === `file://${process.argv[1]}`;
const SECONDS = direct && Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 1;

export const redactionBenchmark: Benchmark = {
  name: 'redaction',
  async run({ quick }) {
    const seconds = quick ? 0.5 : SECONDS;
    const secrets = normalSecrets();
    const figures: Figure[] = [];
    for (const [name, texts] of [['64 KiB event page', [page(), page()]], ['request line + headers', [requestLine(), requestLine()]]] as const) {
      const fresh = withSecrets(new Redactor(), secrets);
      const legacy = withSecrets(new LegacyRedactor(), secrets);
      // Warm both (JIT, the lazily built search), then measure in turn.
      throughput(fresh, [...texts], 0.2);
      throughput(legacy, [...texts], 0.2);
      const now = throughput(fresh, [...texts], seconds);
      const before = throughput(legacy, [...texts], seconds);
      console.log(`${name}: new ${mb(now)}, old ${mb(before)}`);
      figures.push({ benchmark: 'redaction', figure: `${name}, 4 normal secrets: time per char, new redactor`, ratio: before / now, against: 'the old RegExp redactor', detail: `${mb(now)} vs ${mb(before)}` });
    }
    const large = withSecrets(new Redactor(), [...secrets, ...Array.from({ length: 2 }, () => `eyJhbGciOiJIUzI1NiJ9.${randomBytes(30_000).toString('base64url')}.sig`)]);
    const t0 = performance.now();
    large.redactText('build');
    const build = performance.now() - t0;
    const big = throughput(large, [page()], seconds);
    let legacyNote = 'held them';
    try {
      withSecrets(new LegacyRedactor(), [...Array.from({ length: 2 }, () => `eyJ${randomBytes(30_000).toString('base64url')}`)]).redactText('x');
    } catch (e) {
      legacyNote = `throws ${e instanceof Error ? e.name : 'an error'}`;
    }
    console.log(`two 40 KiB tokens: search built in ${build.toFixed(0)} ms, 64 KiB page at ${mb(big)}; the old redactor ${legacyNote}`);
    figures.push({ benchmark: 'redaction', figure: '64 KiB page with two 40 KiB tokens added: time per char', ratio: throughput(withSecrets(new Redactor(), secrets), [page()], seconds) / big, against: 'the new redactor with the 4 normal secrets only', detail: `built in ${build.toFixed(0)} ms; old redactor ${legacyNote}` });
    return figures;
  },
};

if (direct) {
  for (const f of await redactionBenchmark.run({ quick: false })) console.log(`${f.figure}: ${f.ratio?.toFixed(2)}x vs ${f.against} (${f.detail})`);
}
