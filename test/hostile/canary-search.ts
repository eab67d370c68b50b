/**
 * The canary search of the leak tests: every file under a folder plus console text, for every canary in
 * every spelling a report could hold (raw, URL/form-encoded, JSON-escaped, base64 and base64url, hex, and inside
 * base64 blobs at any alignment by decoding them). Hits name the canary's kind and the place, never the value.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isZip, zipEntries } from '../../src/harness/report/redaction/zip-text.js';

export interface Canary {
  kind: string;
  value: string;
}

export function spellings(value: string): string[] {
  const b = Buffer.from(value, 'utf8');
  return [...new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1), b.toString('base64'), b.toString('base64url'), b.toString('hex')])];
}

export interface Place {
  where: string;
  text: string;
}

export function placesUnder(root: string, label = root): Place[] {
  const out: Place[] = [];
  for (const d of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!d.isFile()) continue;
    const file = join(d.parentPath, d.name);
    const where = relative(label, file) || file;
    const buf = readFileSync(file);
    out.push({ where, text: buf.toString('latin1') }, ...embeddedZips(buf).map((text, i) => ({ where: `${where} (embedded zip ${i + 1})`, text })));
  }
  return out;
}

/** Zip archives in a file (the file itself, or base64 zips such as the Playwright HTML report's data), as text. */
function embeddedZips(buf: Buffer): string[] {
  const zips = isZip(buf) ? [buf] : [...buf.toString('latin1').matchAll(/base64,(UEsDB[A-Za-z0-9+/=]+)/g)].map((m) => Buffer.from(m[1] as string, 'base64'));
  return zips.map((z) => zipEntries(z).map((e) => e.data.toString('latin1')).join('\n'));
}

const BLOB = /[A-Za-z0-9+/_-]{24,}={0,2}/g;

/** `minLength`: canaries shorter than this are not searched (default 6: shorter ones match by chance; a test planting a distinctive short token lowers it). */
export function searchCanaries(canaries: Canary[], places: Place[], minLength = 6): string[] {
  const hits = new Set<string>();
  for (const p of places) {
    const decoded = [...p.text.matchAll(BLOB)].map((m) => Buffer.from(m[0], m[0].includes('-') || m[0].includes('_') ? 'base64url' : 'base64').toString('latin1')).join('\n');
    for (const c of canaries) {
      if (c.value.length < minLength) continue;
      const forms = spellings(c.value);
      if (forms.some((f) => p.text.includes(f))) hits.add(`${c.kind} found in ${p.where}`);
      else if (forms.some((f) => decoded.includes(f))) hits.add(`${c.kind} found base64-embedded in ${p.where}`);
    }
  }
  return [...hits].sort();
}

/**
 * Scenarios whose first exchanges are a token request and an API request (one whose client's token request
 * stalls; the CLI's reachability probe takes one API answer too): seven token requests of the primary client,
 * the first four take the stub's spelling kinds (canary-stub.ts), the later ones ordinary tokens, whose API
 * calls meet the canary's four failures.
 */
export const CANARY_GREP = '\\b(resources\\.(health|currency|holidays|entities|cells|entity-users|holdings)|permissions\\.readonly-writes):';

export function plantedCanaries(values: Record<string, string>): Canary[] {
  const ids: Record<string, string> = {
    FTF_HOSTILE_PRIMARY_SECRET: 'hostile-primary',
    FTF_HOSTILE_SECOND_SECRET: 'hostile-second',
    FTF_HOSTILE_READONLY_SECRET: 'hostile-readonly',
    FTF_HOSTILE_CODE_SECRET: 'hostile-code',
  };
  return Object.entries(values).flatMap(([env, value]) => [
    { kind: env, value },
    ...(ids[env] ? [{ kind: `Basic credentials of ${ids[env]}`, value: Buffer.from(`${ids[env]}:${value}`).toString('base64') }] : []),
  ]);
}

/**
 * Outer bound of a canary run, derived like hostile.test.ts's: start-up (60 s), then per scenario three
 * exchange bounds (request_ms: token, consent, request) plus a worker restart (FTF_HOSTILE_RESTART_MS,
 * default 6 s) spread over the workers, plus the work after Playwright (the CLI's verdicts, Allure HTML build
 * and leak scan; Playwright's report writing: FTF_CANARY_POST_RUN_MS, default 60 s).
 */
export function canaryBoundMs(requestMs: number, scenarios: number, workers: number): number {
  const perScenario = 3 * requestMs + Number(process.env.FTF_HOSTILE_RESTART_MS ?? 6_000);
  return 60_000 + Math.ceil(scenarios / workers) * perScenario + Number(process.env.FTF_CANARY_POST_RUN_MS ?? 60_000);
}
