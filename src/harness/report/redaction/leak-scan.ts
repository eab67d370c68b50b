/**
 * The leak scan: one scanner over every file a run writes (reports/**, test-results/**, the Allure HTML,
 * the certificate bundle). A file leaks when it holds a known secret in any spelling (raw, URL/form-encoded,
 * JSON-escaped, base64: matched by digest, secret-digests.ts) or a structurally recognised credential that
 * is not redacted (structural-redaction.ts), directly or inside a base64 blob (Allure and Playwright embed
 * data that way). Hits name the file and the kind, never the value. Every file is searched whole, whatever
 * the length of a secret or of a run of token characters (secret-digests.ts), but for Playwright's own HTML app
 * at the start of its report, while it is byte for byte what playwright-core ships (shipped-prefix.ts). Files with a
 * hit are quarantined (quarantine.ts) before FTF_E_SECRET_LEAK is thrown.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FtfError } from '../../../shared/errors.js';
import { Redactor } from '../../http/redactor.js';
import { DIGESTS_FILE, readDigestFile, type DigestSet } from './secret-digests.js';
import { quarantine } from './quarantine.js';
import { shippedPrefixLength } from './shipped-prefix.js';
import { findStructural } from './structural-redaction.js';
import { isZip, zipEntries } from './zip-text.js';

export interface LeakHit {
  file: string;
  kind: string;
}

export interface LeakScanOptions {
  /** Digests announced by the workers (reports/secret-digests.json) and/or added from known values. */
  digests: DigestSet;
  /**
   * Secrets the scanning process holds itself (the profile's, the embedded server's): also found cut into
   * pieces (http/pieces.ts), which no digest can show.
   */
  values?: readonly string[];
  /** Files above this size are scanned in parts of this size, overlapping by the longest spelling (default 256 MiB). */
  maxBytes?: number;
}

/** Base64 characters (A-Z a-z 0-9 + /) by code unit. */
const B64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') B64[c.charCodeAt(0)] = 1;

/**
 * Every maximal run of 24+ base64 characters (with its `=` padding), by a plain scan: a RegExp over the
 * multi-MiB base64 runs an Allure HTML embeds overflowed V8's stack (`report --scan` ended in an internal error).
 */
function* base64Blobs(text: string): Generator<string> {
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c >= 128 || B64[c] !== 1) {
      i++;
      continue;
    }
    const start = i;
    while (i < len && text.charCodeAt(i) < 128 && B64[text.charCodeAt(i)] === 1) i++;
    let end = i;
    while (end < len && end - i < 2 && text.charCodeAt(end) === 61) end++;
    if (i - start >= 24) yield text.slice(start, end);
    i = end > i ? end : i;
  }
}

/** Every regular file under the given roots (missing roots are skipped). */
export function filesUnder(roots: string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    if (statSync(root).isFile()) {
      out.push(root);
      continue;
    }
    for (const d of readdirSync(root, { recursive: true, withFileTypes: true })) if (d.isFile()) out.push(join(d.parentPath, d.name));
  }
  return [...new Set(out)].sort();
}

/** The search for pieces of the values a scan holds (undefined: none). */
export function piecesOf(values: readonly string[] | undefined): Redactor | undefined {
  if (!values?.length) return undefined;
  const r = new Redactor();
  for (const v of values) r.addSecret(v, 'FTF_SECRET');
  return r.size ? r : undefined;
}

/** What in `text` is a leak (undefined: nothing). */
export function leakIn(text: string, digests: DigestSet, pieces?: Redactor): string | undefined {
  if (digests.find(text).length) return 'a secret of this run';
  const cut = pieces?.leakIn(text);
  if (cut) return cut;
  const structural = findStructural(text);
  if (structural) return `an unredacted ${structural} value`;
  for (const blob of base64Blobs(text)) {
    const bytes = Buffer.from(blob, 'base64');
    if (isZip(bytes)) {
      const inZip = leakInZip(bytes, digests, pieces);
      if (inZip) return `${inZip} (in an embedded zip)`;
      continue;
    }
    const decoded = bytes.toString('utf8');
    // Only text-like payloads: random bytes decoded as UTF-8 cannot hold a readable credential.
    if (!printable(decoded.slice(0, 256))) continue;
    if (digests.find(decoded).length) return 'a secret of this run (base64-encoded)';
    const cutInside = pieces?.leakIn(decoded);
    if (cutInside) return `${cutInside} (base64-encoded)`;
    const inner = findStructural(decoded);
    if (inner) return `an unredacted ${inner} value (base64-encoded)`;
  }
  return undefined;
}

function leakInZip(bytes: Buffer, digests: DigestSet, pieces?: Redactor): string | undefined {
  for (const entry of zipEntries(bytes)) {
    const kind = leakIn(entry.data.toString('utf8'), digests, pieces);
    if (kind) return `${kind} in ${entry.name}`;
  }
  return undefined;
}

export function scanForLeaks(files: string[], options: LeakScanOptions): LeakHit[] {
  const hits: LeakHit[] = [];
  const max = options.maxBytes ?? 256 * 1024 * 1024;
  const pieces = piecesOf(options.values);
  for (const file of files) {
    const buf = readFileSync(file);
    const kind = isZip(buf) ? leakInZip(buf, options.digests, pieces) : leakInParts(writtenPart(file, buf, options.digests, pieces), max, options.digests, pieces);
    if (kind) hits.push({ file, kind });
  }
  return hits;
}

/** More bytes than any spelling of a secret (4 bytes a character) plus `slack`. */
const spellingOverlap = (digests: DigestSet, pieces: Redactor | undefined, slack: number): number => 4 * Math.max(digests.longest, pieces?.longestSpelling ?? 0) + slack;

/** The file without the bytes it shares with what Playwright ships (shipped-prefix.ts), but for the last spelling's worth of them. */
function writtenPart(file: string, buf: Buffer, digests: DigestSet, pieces?: Redactor): Buffer {
  const shipped = shippedPrefixLength(file, buf);
  return shipped ? buf.subarray(Math.max(0, shipped - spellingOverlap(digests, pieces, 1024))) : buf;
}

/** A large file part by part: consecutive parts overlap by more than any spelling (4 bytes a character) or structural match. */
function leakInParts(buf: Buffer, size: number, digests: DigestSet, pieces?: Redactor): string | undefined {
  if (buf.length <= size) return leakIn(buf.toString('utf8'), digests, pieces);
  const overlap = spellingOverlap(digests, pieces, 64 * 1024);
  const step = Math.max(size - overlap, 1024 * 1024);
  for (let at = 0; at < buf.length; at += step) {
    const kind = leakIn(buf.subarray(at, at + step + overlap).toString('utf8'), digests, pieces);
    if (kind) return kind;
  }
  return undefined;
}

/**
 * Throws FTF_E_SECRET_LEAK naming the files (never the secret): a leak is a harness bug (exit 3). The leaking
 * files are first moved out of the reports (quarantine.ts), so no later step (a CI upload) publishes them.
 */
export function assertNoLeaks(files: string[], options: LeakScanOptions): void {
  throwOnHits(scanForLeaks(files, options));
}

function throwOnHits(hits: LeakHit[]): void {
  if (hits.length === 0) return;
  const moved = quarantine(hits.map((h) => h.file));
  const list = hits.slice(0, 10).map((h) => `${h.file} (${h.kind})`).join(', ');
  const where = moved.folder ? `moved to ${moved.folder} (private to this user)` : 'deleted';
  const stuck = moved.stuck.length ? `; ${moved.stuck.length} could be neither moved nor deleted: ${moved.stuck.slice(0, 5).join(', ')}` : '';
  throw new FtfError('FTF_E_SECRET_LEAK', `${hits.length} report file(s) held a secret, ${where}${stuck}: ${list}${hits.length > 10 ? ', …' : ''}`, {
    hint: 'a harness bug: the redaction boundary missed it (docs/robustness.md); the other reports are clean, the moved files are evidence for the bug report',
  });
}

/** The secrets the CLI holds itself and their Basic credentials: what the run's scan adds to the workers' digests. */
export function cliSecretValues(secrets: readonly string[], basic: ReadonlyArray<{ clientId: string; secret: string }> = []): string[] {
  return [...secrets, ...basic.map((b) => Buffer.from(`${b.clientId}:${b.secret}`, 'utf8').toString('base64'))];
}

/** The Basic credentials (client id and secret) of a target's credentials: what cliSecretValues searches for encoded. */
export function basicCredentialsOf(credentials: Readonly<Record<string, { clientId?: string | undefined; secret?: string | undefined }>>): Array<{ clientId: string; secret: string }> {
  return Object.values(credentials).flatMap((c) => (c.clientId && c.secret !== undefined ? [{ clientId: c.clientId, secret: c.secret }] : []));
}

/** Playwright's output folder of a run: `--output` among the extra arguments, else the config's <reports>/test-results. */
export function outputDirOf(extraArgs: readonly string[], repoRoot: string, reportsRoot: string): string {
  for (let i = 0; i < extraArgs.length; i++) {
    const a = extraArgs[i] as string;
    if (a.startsWith('--output=')) return resolve(repoRoot, a.slice('--output='.length));
    if (a === '--output' && extraArgs[i + 1]) return resolve(repoRoot, extraArgs[i + 1] as string);
  }
  return resolve(reportsRoot, 'test-results');
}

/**
 * The scan after every run: the workers' digests (reports/secret-digests.json) plus the secrets the CLI holds
 * itself (profile secrets, the embedded server's, and their Basic credentials; these also in pieces) over
 * EVERY file left in the reports folder and the output folder, whoever wrote it and whenever: what CI
 * uploads is what is there, not what this run wrote.
 */
export async function assertRunLeakFree(opts: {
  reportsRoot: string;
  outputDir: string;
  secrets: readonly string[];
  basic?: ReadonlyArray<{ clientId: string; secret: string }>;
  /** Where the files are scanned (leak-scan-pool.ts: on two cores); default here, on this thread. */
  scanner?: { scan(files: string[], options: LeakScanOptions): Promise<LeakHit[]> };
}): Promise<number> {
  const digests = readDigestFile(join(opts.reportsRoot, DIGESTS_FILE));
  digests.addValues(cliSecretValues(opts.secrets, opts.basic));
  const files = filesUnder([opts.reportsRoot, opts.outputDir]);
  // Pieces of the secrets only: a piece of a Basic credential may spell nothing but its public client id.
  const values = [...opts.secrets];
  throwOnHits(opts.scanner ? await opts.scanner.scan(files, { digests, values }) : scanForLeaks(files, { digests, values }));
  return files.length;
}

function printable(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 13) return false;
    if (c === 0xfffd || (c >= 0x7f && c < 0xa0)) return false;
  }
  return true;
}
