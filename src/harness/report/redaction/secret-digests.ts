/**
 * Secrets by digest. The Playwright main process (where reporters run) and the CLI (where the leak scan
 * runs) never see the secrets workers learn (the embedded server's generated secrets, issued tokens). Workers
 * hand over SHA-256 digests of every spelling of every secret instead; a digest is not a secret, so it may
 * travel through stdout and sit in a report folder. With each digest goes a 32-bit fingerprint of the
 * spelling's first (up to) 12 characters: the receiving side rolls that fingerprint over every position of a
 * text and hashes the candidate substring only where it matches, so a secret is found wherever it stands,
 * whatever its length and alphabet (no token-character runs, no length limit), in time linear in the text.
 * The fingerprint is 32 bits of at most 12 characters: it cannot give back the secret.
 *
 * Channel: a worker writes one stdout chunk `DIGEST_MARKER <json>\n` (Playwright forwards a worker's stdout
 * in order with its step events, so the digest arrives before any report event that could carry the secret).
 * The redacting reporter consumes and strips these chunks and keeps the set in `<reports>/secret-digests.json`
 * for the post-run leak scan.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIN_SPELLING_LENGTH, spellingsOf } from '../../http/spellings.js';

export { spellingsOf };

export const DIGEST_MARKER = '##ftf-secret-digests ';
/** Name of the digests file in the reports folder (playwright.config.ts passes the same to the reporter). */
export const DIGESTS_FILE = 'secret-digests.json';
/** Below this a "secret" would match ordinary words (the Redactor's floor too). */
const MIN_LENGTH = MIN_SPELLING_LENGTH;
/** The fingerprint covers the first FINGERPRINT_CHARS characters of a spelling (all of a shorter one). */
const FINGERPRINT_CHARS = 12;

export interface SecretDigest {
  /** Length of the spelling in UTF-16 code units (what the scanner slides over). */
  n: number;
  /** SHA-256 hex of the spelling. */
  d: string;
  /** Rolling-hash fingerprint (int32) of the first min(n, 12) characters: where to hash a candidate. */
  p: number;
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const BASE = 0x01000193;

/** The fingerprint of text[at, at + w): a polynomial hash mod 2^32, rollable one character at a time. */
function fingerprint(text: string, at: number, w: number): number {
  let h = 0;
  for (let k = 0; k < w; k++) h = (Math.imul(h, BASE) + text.charCodeAt(at + k)) | 0;
  return h;
}

export function digestsOf(spellings: Iterable<string>): SecretDigest[] {
  return [...new Set(spellings)].filter((s) => s.length >= MIN_LENGTH).map((s) => ({ n: s.length, d: sha256(s), p: fingerprint(s, 0, Math.min(s.length, FINGERPRINT_CHARS)) }));
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
  const y = x as SecretDigest;
  return typeof x === 'object' && x !== null && Number.isInteger(y.n) && Number.isInteger(y.p) && typeof y.d === 'string' && /^[0-9a-f]{64}$/.test(y.d);
}

export class DigestSet {
  /** By fingerprint width (6..12), by fingerprint: the spellings' lengths and digests. */
  private readonly byWidth = new Map<number, Map<number, Array<{ n: number; d: string }>>>();
  /** By fingerprint width: a bitmap of the fingerprints' top 21 bits (most positions end at one bit test). */
  private readonly bitmaps = new Map<number, Int32Array>();
  private readonly all = new Map<string, SecretDigest>();

  constructor(digests: Iterable<SecretDigest> = []) {
    this.add(digests);
  }

  /** Adds the digests not held yet and returns those (what an append-only file still lacks). */
  add(digests: Iterable<SecretDigest>): SecretDigest[] {
    const added: SecretDigest[] = [];
    for (const x of digests) {
      if (x.n < MIN_LENGTH || this.all.has(x.d)) continue;
      const kept = { n: x.n, d: x.d, p: x.p };
      this.all.set(x.d, kept);
      added.push(kept);
      const w = Math.min(x.n, FINGERPRINT_CHARS);
      let byPrint = this.byWidth.get(w);
      if (!byPrint) this.byWidth.set(w, (byPrint = new Map()));
      let bits = this.bitmaps.get(w);
      if (!bits) this.bitmaps.set(w, (bits = new Int32Array(1 << 16)));
      const slot = x.p >>> 11;
      bits[slot >>> 5] = (bits[slot >>> 5] as number) | (1 << (slot & 31));
      let list = byPrint.get(x.p);
      if (!list) byPrint.set(x.p, (list = []));
      list.push({ n: x.n, d: x.d });
    }
    return added;
  }

  /** Adds known values (all their spellings): for callers that do hold the secrets (the CLI's profile). */
  addValues(values: Iterable<string>): void {
    for (const v of values) if (typeof v === 'string' && v.length >= MIN_LENGTH) this.add(digestsOf(spellingsOf(v)));
  }

  get size(): number {
    return this.all.size;
  }

  /** Length of the longest spelling (characters). */
  get longest(): number {
    let max = 0;
    for (const x of this.all.values()) if (x.n > max) max = x.n;
    return max;
  }

  toJSON(): SecretDigest[] {
    return [...this.all.values()];
  }

  /**
   * Ranges [start, end) of secret spellings in `text`, merged where they overlap, wherever they stand: the
   * fingerprint is rolled over every position (one pass per fingerprint width) and a candidate is hashed only
   * where it matches. Linear in the text (plus the candidates' lengths, only where a fingerprint matched).
   */
  find(text: string): Array<[number, number]> {
    if (this.all.size === 0 || text.length < MIN_LENGTH) return [];
    const hits: Array<[number, number]> = [];
    const len = text.length;
    for (const [w, byPrint] of this.byWidth) {
      if (len < w) continue;
      let out = 1;
      for (let k = 1; k < w; k++) out = Math.imul(out, BASE);
      const bits = this.bitmaps.get(w) as Int32Array;
      let h = fingerprint(text, 0, w);
      for (let i = 0; ; i++) {
        const slot = h >>> 11;
        const candidates = (bits[slot >>> 5] as number) & (1 << (slot & 31)) ? byPrint.get(h) : undefined;
        if (candidates) for (const c of candidates) if (i + c.n <= len && sha256(text.slice(i, i + c.n)) === c.d) hits.push([i, i + c.n]);
        if (i + w >= len) break;
        h = (Math.imul((h - Math.imul(text.charCodeAt(i), out)) | 0, BASE) + text.charCodeAt(i + w)) | 0;
      }
    }
    if (hits.length < 2) return hits;
    hits.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [hits[0] as [number, number]];
    for (const [a, b] of hits.slice(1)) {
      const top = merged[merged.length - 1] as [number, number];
      if (a < top[1]) top[1] = Math.max(top[1], b);
      else merged.push([a, b]);
    }
    return merged;
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

/**
 * Reads a digests file (missing file: empty set). The file is append-only JSON Lines (one array of digests per
 * line): each announcement appends only its new digests. Rewriting the whole file at every announcement cost O(n^2): in a 1,000-test variant matrix the
 * runner spent most of its CPU in writeFileSync (cpu profile of `selftest --faults a,b`: 7 of its 14.5 s).
 * A line cut by a crash mid-append is skipped; the lines before it stand. The older one-array file is one line.
 */
export function readDigestFile(file: string): DigestSet {
  const set = new DigestSet();
  if (!existsSync(file)) return set;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const list = JSON.parse(line) as unknown;
      if (Array.isArray(list)) set.add(list.filter(isDigest));
    } catch {
      // a torn last line: what it held was announced again or is lost with the crash that tore it
    }
  }
  return set;
}

/**
 * Appends digests to a digests file (nothing when the list is empty). Each line starts on a fresh line even after
 * a torn one (a writer that died mid-append): the blank lines this leaves are skipped, the digests are not lost.
 */
export function appendToDigestFile(file: string, digests: readonly SecretDigest[]): void {
  if (digests.length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `\n${JSON.stringify(digests)}\n`);
}

/** Adds the digests of known values (every spelling; never a value) to a digests file, for a later scan in another process. */
export function addToDigestFile(file: string, values: Iterable<string>): void {
  const set = new DigestSet();
  set.addValues(values);
  appendToDigestFile(file, set.toJSON());
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
