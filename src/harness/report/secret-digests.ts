/**
 * Secrets by digest. The Playwright main process (where reporters run) and the CLI (where the leak scan
 * runs) never see the secrets workers learn (the embedded server's generated secrets, issued tokens). Workers
 * hand over SHA-256 digests of every spelling of every secret instead; a digest is not a secret, so it may
 * travel through stdout and sit in a report folder. The receiving side hashes each token-shaped substring of
 * the same length and compares: a match is a secret, located without the secret ever being known.
 *
 * Channel: a worker writes one stdout chunk `DIGEST_MARKER <json>\n` (Playwright forwards a worker's stdout
 * in order with its step events, so the digest arrives before any report event that could carry the secret).
 * The redacting reporter consumes and strips these chunks and keeps the set in `<reports>/secret-digests.json`
 * for the post-run leak scan.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const DIGEST_MARKER = '##ftf-secret-digests ';
/** Name of the digests file in the reports folder (playwright.config.ts passes the same to the reporter). */
export const DIGESTS_FILE = 'secret-digests.json';
/** Below this a "secret" would match ordinary words (same floor as the Redactor's MIN_SECRET_LENGTH). */
const MIN_LENGTH = 6;

export interface SecretDigest {
  /** Length of the spelling in UTF-16 code units (what the scanner slides over). */
  n: number;
  /** SHA-256 hex of the spelling. */
  d: string;
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** Every spelling a report could hold: raw, URL/form-encoded, JSON-escaped, base64. */
export function spellingsOf(value: string): string[] {
  const forms = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)];
  forms.push(Buffer.from(value, 'utf8').toString('base64'), Buffer.from(value, 'utf8').toString('base64url'));
  return [...new Set(forms)].filter((f) => f.length >= MIN_LENGTH);
}

export function digestsOf(spellings: Iterable<string>): SecretDigest[] {
  return [...new Set(spellings)].filter((s) => s.length >= MIN_LENGTH).map((s) => ({ n: s.length, d: sha256(s) }));
}

/** The stdout chunk a worker writes to announce digests (empty list: nothing to write). */
export function digestAnnouncement(digests: SecretDigest[]): string | undefined {
  return digests.length ? `${DIGEST_MARKER}${JSON.stringify(digests)}\n` : undefined;
}

/** Splits a stdout chunk into announced digests and the text that remains for the reporters. */
export function takeAnnouncements(chunk: string): { digests: SecretDigest[]; rest: string } {
  if (!chunk.includes(DIGEST_MARKER)) return { digests: [], rest: chunk };
  const digests: SecretDigest[] = [];
  const kept: string[] = [];
  for (const line of chunk.split(/(?<=\n)/)) {
    const at = line.indexOf(DIGEST_MARKER);
    if (at < 0) {
      kept.push(line);
      continue;
    }
    try {
      const list = JSON.parse(line.slice(at + DIGEST_MARKER.length)) as unknown;
      if (Array.isArray(list)) for (const x of list) if (isDigest(x)) digests.push(x);
    } catch {
      // a cut marker line is dropped, never forwarded: it can only hold digests
    }
    if (at > 0) kept.push(line.slice(0, at));
  }
  return { digests, rest: kept.join('') };
}

function isDigest(x: unknown): x is SecretDigest {
  return typeof x === 'object' && x !== null && typeof (x as SecretDigest).n === 'number' && typeof (x as SecretDigest).d === 'string' && /^[0-9a-f]{64}$/.test((x as SecretDigest).d);
}

/** Characters a token is made of; a secret occurrence starts and ends at a change from/to something else. */
const TOKEN_CHAR = /[A-Za-z0-9_\-.~+/=%]/;
/** TOKEN_CHAR plus the backslash of a JSON-escaped spelling, as a lookup table over ASCII. */
const RUN_TABLE = new Uint8Array(128).map((_, c) => (TOKEN_CHAR.test(String.fromCharCode(c)) || c === 0x5c ? 1 : 0));
/** A spelling may end before anything but a letter, digit or underscore (or before %, an encoded separator). */
function isEndCode(c: number): boolean {
  return !((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95);
}

export class DigestSet {
  private readonly byLength = new Map<number, Set<string>>();

  constructor(digests: Iterable<SecretDigest> = []) {
    this.add(digests);
  }

  add(digests: Iterable<SecretDigest>): void {
    for (const { n, d } of digests) {
      if (n < MIN_LENGTH) continue;
      let set = this.byLength.get(n);
      if (!set) this.byLength.set(n, (set = new Set()));
      set.add(d);
    }
  }

  /** Adds known values (all their spellings): for callers that do hold the secrets (the CLI's profile). */
  addValues(values: Iterable<string>): void {
    for (const v of values) if (typeof v === 'string' && v.length >= MIN_LENGTH) this.add(digestsOf(spellingsOf(v)));
  }

  get size(): number {
    let n = 0;
    for (const s of this.byLength.values()) n += s.size;
    return n;
  }

  toJSON(): SecretDigest[] {
    return [...this.byLength].flatMap(([n, set]) => [...set].map((d) => ({ n, d })));
  }

  /**
   * Ranges [start, end) of secret spellings in `text`. Candidates start where a token starts or inside a
   * token after a separator ('=', ':', '/', '.', '%'), so `code=SECRET&…` and `Basic SECRET` are both seen.
   */
  find(text: string): Array<[number, number]> {
    if (this.byLength.size === 0 || text.length < MIN_LENGTH) return [];
    const len = text.length;
    const lengths = [...this.byLength.keys()];
    const minLen = Math.min(...lengths);
    const maxLen = Math.max(...lengths);
    // run[i]: token characters starting at i (a spelling never spans a space, quote or bracket).
    // nextEnd[k]: the first position >= k where a spelling may end (isEnd).
    const run = new Int32Array(len + 1);
    const nextEnd = new Int32Array(len + 2);
    nextEnd[len] = len;
    nextEnd[len + 1] = len + 1;
    for (let k = len - 1; k >= 0; k--) {
      const c = text.charCodeAt(k);
      run[k] = c < 128 && RUN_TABLE[c] ? (run[k + 1] as number) + 1 : 0;
      nextEnd[k] = isEndCode(c) ? k : (nextEnd[k + 1] as number);
    }
    const hits: Array<[number, number]> = [];
    // Run by run: candidates start where a run starts or right after a separator inside it.
    let i = 0;
    while (i < len) {
      const r = run[i] as number;
      if (r === 0) {
        i++;
        continue;
      }
      const runEnd = i + r;
      // A run of token characters longer than MAX_RUN is a blob (base64 data, bundled code): the leak scan
      // decodes blobs and searches the decoded text; a spelling inside raw blob text is not delimited anyway.
      if (r >= minLen && r <= MAX_RUN) {
        let j = i;
        while (j <= runEnd - minLen) {
          let matched = 0;
          if (j === i || START_AFTER[text.charCodeAt(j - 1)] === 1) {
            const limit = Math.min(runEnd - j, maxLen);
            for (let e = nextEnd[j + minLen] as number; e - j <= limit; e = nextEnd[e + 1] as number) {
              const set = this.byLength.get(e - j);
              if (set?.has(sha256(text.slice(j, e)))) matched = e - j;
            }
          }
          if (matched) {
            hits.push([j, j + matched]);
            j += matched;
          } else j++;
        }
      }
      i = runEnd;
    }
    return hits;
  }

  redact(text: string, label = '[REDACTED]'): string {
    const hits = this.find(text);
    if (hits.length === 0) return text;
    let out = '';
    let last = 0;
    for (const [a, b] of hits) {
      out += text.slice(last, a) + label;
      last = b;
    }
    return out + text.slice(last);
  }
}

const MAX_RUN = 8192;
/** Inside a run, a spelling may start right after one of these (`code=SECRET`, `a/SECRET`, a JSON escape). */
const START_AFTER = new Uint8Array(128).map((_, c) => ('=:/.%+~\\'.includes(String.fromCharCode(c)) ? 1 : 0));

/** Reads a digests file written by the redacting reporter (missing file: empty set). */
export function readDigestFile(file: string): DigestSet {
  if (!existsSync(file)) return new DigestSet();
  try {
    const list = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return new DigestSet(Array.isArray(list) ? list.filter(isDigest) : []);
  } catch {
    return new DigestSet();
  }
}

/** Adds the digests of known values (every spelling; never a value) to a digests file, for a later scan in another process. */
export function addToDigestFile(file: string, values: Iterable<string>): void {
  const all = readDigestFile(file);
  all.addValues(values);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(all.toJSON()));
}

const announced = new Set<string>();

/**
 * Worker side: announces the digests of secrets (every spelling) not announced yet by this process. The
 * reporters strip the chunk; a raw reporter would print digests only, never a value.
 */
export function announceSecrets(values: Iterable<string>, write: (chunk: string) => void = (c) => void process.stdout.write(c)): void {
  const fresh = digestsOf([...values].flatMap(spellingsOf)).filter((x) => !announced.has(x.d));
  for (const x of fresh) announced.add(x.d);
  const chunk = digestAnnouncement(fresh);
  if (chunk) write(chunk);
}
