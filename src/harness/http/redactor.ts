/**
 * The one registry of secret values of a run. Everything written anywhere (reports, HAR, attachments, curl
 * lines, error excerpts) passes through `redactText` / `redactHeaders`. Values are registered explicitly
 * (client secrets with their env var names, tokens obtained by the auth client) or learned from traffic
 * (token responses, form bodies, redirect Locations).
 *
 * How text is searched (no RegExp is ever built from secret text, so no size or alphabet of a secret can
 * break it):
 * - every spelling of every secret (spellings.ts: raw, URL, form, JSON, base64/base64url at every alignment,
 *   hex) is a needle of one Aho-Corasick search (needles.ts), over the text and over its decoded view
 *   (escapes.ts: HTML entities, %XX, JSON escapes in any mix);
 * - a secret is also found cut into pieces, at any point (pieces.ts): every window of k characters of it is a
 *   needle (k from the secret's length and alphabet: each piece carries 32 to 48 bits of it), a window found
 *   is extended over the whole piece, and the rest of the secret is redacted where it stands as a field of
 *   its own near the piece;
 * - structural rules (report/redaction/structural-redaction.ts) redact any Bearer credential and any token field's
 *   value, whatever their length and alphabet, also ones the harness never saw.
 * A failure inside the redaction never returns the text: the whole text is withheld (REDACTION_FAILED).
 *
 * Values shorter than MIN_SECRET_LENGTH (6) are not registered: replacing e.g. "abc" everywhere would mangle
 * reports with false positives; such tokens are redacted by where they stand (the structural rules).
 */
import { decodedText, decodedView } from './escapes.js';
import { NeedleSet } from './needles.js';
import { complementsNear, extendPiece, pieceWindow, provesAlone, windowsOf, type Piece } from './pieces.js';
import { MIN_SPELLING_LENGTH, textSpellings } from './spellings.js';
import { mayHoldStructural, redactStructural } from '../report/redaction/structural-redaction.js';

export const MIN_SECRET_LENGTH = MIN_SPELLING_LENGTH;
/** Spellings longer than this are needles by their first HEAD characters (see needleSearch). */
const LONG_SPELLING = 1024;
const HEAD = 256;

/** Where the text stops spelling `full` from `start` on (the end of the matched part). */
function matchedUpTo(text: string, start: number, full: string): number {
  let i = 0;
  while (i < full.length && start + i < text.length && text.charCodeAt(start + i) === full.charCodeAt(i)) i++;
  return start + i;
}

/** What the text becomes when redaction itself fails: never the text. */
export const REDACTION_FAILED = 'REDACTION_FAILED';

/** Headers whose values are always secret, whatever they contain. */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** JSON fields whose string values are learned as secrets (not `code`: API records use it for product codes). */
const JSON_SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret', 'code_verifier', 'api_key']);
/** Form / query fields learned as secrets (only token-endpoint forms and redirects carry these). */
const FORM_SECRET_FIELDS = new Set([...JSON_SECRET_FIELDS, 'code', 'password']);
/** Can a JSON text hold a secret field at all? (`\u` escapes may spell a key name, so they always walk.) */
const SECRET_KEY_HINT = new RegExp(`${[...JSON_SECRET_FIELDS].join('|')}|\\\\u`);

/** A window of a secret (pieces.ts): the secret, where the window starts in it, the window's length and the bits a character carries. */
interface Fragment {
  value: string;
  offset: number;
  k: number;
  bits: number;
}

/** A secret in a text: whole in some spelling, a piece of it, or a complement of a piece standing near it. */
interface Found {
  start: number;
  end: number;
  /** The secret (canonical value). */
  value: string;
  /** Overlapping finds are one segment, labelled by the longest. */
  weight: number;
}

interface Entry {
  label: string;
  /** Learned from traffic (generic label); an explicit addSecret may rename it. */
  learned: boolean;
}

/** A piece of text: plain, or a secret with its label and the env var a curl line should reference. */
export type Segment = { text: string } | { label: string; env: string };

export class Redactor {
  private readonly entries = new Map<string, Entry>();
  /** Encoded spellings (URL, form, JSON-escaped, Basic base64) -> canonical value. */
  private readonly spellings = new Map<string, string>();
  /** base64("client:secret") -> parts, so curl can say -u "client:$SECRET_ENV". */
  private readonly basics = new Map<string, { clientId: string; secret: string }>();
  /**
   * Windows of secrets (pieces.ts) -> their secret and place in it. Searched, never announced: overlapping
   * windows' digests would give a secret back one character at a time.
   */
  private readonly fragments = new Map<string, Fragment>();
  /** The search over spellings (ids below `spellings`) and fragments, rebuilt on the next search after a new value. */
  private search: { set: NeedleSet; needles: string[]; spellings: number; heads: Map<string, string[]> } | undefined;
  private readonly listeners: Array<(spellings: string[]) => void> = [];

  /**
   * Called with every new spelling as it is registered or learned. The test fixture hands their digests to
   * the reporters (src/harness/report/redaction/secret-digests.ts), which run in another process and must redact too.
   */
  onSpellings(listener: (spellings: string[]) => void): void {
    this.listeners.push(listener);
    const known = [...this.spellings.keys()];
    if (known.length) listener(known);
  }

  private announce(spellings: string[]): void {
    if (spellings.length) for (const l of this.listeners) l(spellings);
  }

  /** Registers a secret under a label (env var name or kind). Returns false when too short to register. */
  addSecret(value: string, label: string): boolean {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return false;
    const existing = this.entries.get(value);
    if (existing && !existing.learned) return true;
    this.entries.set(value, { label, learned: false });
    this.addSpellings(value);
    return true;
  }

  /** Registers a client secret and the Basic header base64 of `clientId:secret`. */
  addBasicCredentials(clientId: string, secret: string, label: string): void {
    if (!this.addSecret(secret, label)) return;
    const b64 = Buffer.from(`${clientId}:${secret}`, 'utf8').toString('base64');
    this.basics.set(b64, { clientId, secret });
    this.spellings.set(b64, secret);
    this.search = undefined;
    this.announce([b64]);
  }

  /**
   * Learns secret values from a JSON body (object/array) or a form / query string body. With `rawText` (the
   * body as received), a parsed body whose text names no secret field is not walked: a 1000-event page
   * costs one string scan instead of a walk over every event.
   */
  learnFromBody(body: unknown, rawText?: string): void {
    if (rawText !== undefined && typeof body !== 'string' && !SECRET_KEY_HINT.test(rawText)) return;
    if (typeof body === 'string') {
      const text = body.trim();
      if (text.startsWith('{') || text.startsWith('[')) {
        try {
          this.learnFromJson(JSON.parse(text) as unknown, 0);
        } catch {
          // not JSON after all: nothing to learn structurally; known values are still redacted.
        }
        return;
      }
      this.learnFromQuery(text.startsWith('?') ? text.slice(1) : text);
      return;
    }
    this.learnFromJson(body, 0);
  }

  /** Learns from request/response headers: bearer/basic credentials and Location query strings. */
  learnFromHeaders(headers: Record<string, string>): void {
    for (const [rawName, value] of Object.entries(headers)) {
      const name = rawName.toLowerCase();
      if (name === 'authorization' || name === 'proxy-authorization') {
        const m = /^(\S+)\s+(\S+)$/.exec(value.trim());
        if (m?.[1]?.toLowerCase() === 'basic' && m[2]) this.learnBasic(m[2]);
        else if (m?.[2]) this.learn(m[2], 'ACCESS_TOKEN');
      } else if (name === 'x-api-key') {
        this.learn(value.trim(), 'API_KEY');
      } else if (name === 'location') {
        const q = value.indexOf('?');
        if (q >= 0) this.learnFromQuery(value.slice(q + 1).split('#')[0] ?? '');
        const h = value.indexOf('#');
        if (h >= 0) this.learnFromQuery(value.slice(h + 1));
      }
    }
  }

  redactText(s: string): string {
    return this.segments(s).map((seg) => ('text' in seg ? seg.text : `[REDACTED:${seg.label}]`)).join('');
  }

  /** Sensitive headers become "<scheme> [REDACTED:<label>]" (scheme kept: Bearer vs Basic matters when debugging). */
  redactHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const sensitive = this.sensitiveHeader(name, value);
      out[name] = sensitive ? `${sensitive.scheme ? `${sensitive.scheme} ` : ''}[REDACTED:${sensitive.label}]` : this.redactText(value);
    }
    return out;
  }

  /** For a sensitive header: its auth scheme (if any) and the label of the secret (or the header's name). */
  sensitiveHeader(name: string, value: string): { scheme?: string; label: string; env: string; basic?: { clientId: string; secretEnv: string } } | undefined {
    const lower = name.toLowerCase();
    if (!SENSITIVE_HEADERS.has(lower)) return undefined;
    const fallback = lower.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
    const known = (v: string) => this.describe(v) ?? { label: fallback, env: envNameFor(fallback) };
    const m = lower.endsWith('authorization') ? /^(\S+)\s+(\S+)$/.exec(value.trim()) : null;
    if (m?.[1] && m[2]) {
      const basic = this.basics.get(m[2]);
      if (basic) {
        const secret = known(basic.secret);
        return { scheme: m[1], label: `BASIC(${secret.label})`, env: secret.env, basic: { clientId: basic.clientId, secretEnv: secret.env } };
      }
      return { scheme: m[1], ...known(m[2]) };
    }
    return known(value.trim());
  }

  labelOf(value: string): string | undefined {
    return this.describe(value)?.label;
  }

  /** Label and env var name of a registered value (any spelling). Explicit labels are env var names already. */
  private describe(value: string): { label: string; env: string } | undefined {
    const canonical = this.spellings.get(value) ?? this.fragments.get(value)?.value;
    const entry = canonical === undefined ? undefined : this.entries.get(canonical);
    if (!entry) return undefined;
    return { label: entry.label, env: entry.learned ? envNameFor(entry.label) : sanitizeEnvName(entry.label) };
  }

  /**
   * Splits text into plain parts (structural rules applied) and secret occurrences. Overlapping occurrences
   * (a secret inside a longer one, pieces of one secret) are one segment, labelled by its longest needle. If
   * anything in here throws, the whole text is one redacted segment: an error never carries the text out.
   */
  segments(s: string): Segment[] {
    try {
      return this.split(s);
    } catch {
      return [{ label: REDACTION_FAILED, env: 'FTF_SECRET' }];
    }
  }

  private split(s: string): Segment[] {
    if (s === '') return [{ text: s }];
    const ranges = this.occurrences(s);
    const out: Segment[] = [];
    let last = 0;
    const plain = (text: string): void => {
      if (text !== '') out.push({ text: mayHoldStructural(text) ? redactStructural(text) : text });
    };
    for (const r of ranges) {
      plain(s.slice(last, r.start));
      out.push(this.describe(r.value) ?? { label: 'SECRET', env: 'FTF_SECRET' });
      last = r.end;
    }
    plain(s.slice(last));
    return out.length ? out : [{ text: '' }];
  }

  /** Merged ranges of every secret found, in the text and in its decoded view (mapped back). */
  private occurrences(s: string): Found[] {
    const search = this.needleSearch();
    if (!search) return [];
    const found = this.find(s, search);
    const view = decodedView(s);
    if (view) for (const f of this.find(view.text, search)) found.push({ ...f, start: view.from[f.start] as number, end: view.to[f.end - 1] as number });
    if (found.length === 0) return [];
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const merged: Found[] = [];
    for (const f of found) {
      const top = merged[merged.length - 1];
      if (top && f.start < top.end) {
        if (f.end > top.end) top.end = f.end;
        if (f.weight > top.weight) {
          top.value = f.value;
          top.weight = f.weight;
        }
        continue;
      }
      merged.push({ ...f });
    }
    return merged;
  }

  /** Whole spellings, pieces, and complements standing as fields near their piece, in one text. */
  private find(text: string, search: NonNullable<Redactor['search']>): Found[] {
    const out: Found[] = [];
    this.eachFind(text, search, (needle, start, end) => {
      out.push({ start, end, value: this.spellings.get(needle) as string, weight: end - start });
      return false;
    }, (piece, fragment) => {
      out.push({ start: piece.start, end: piece.end, value: piece.value, weight: piece.end - piece.start });
      for (const [a, b] of complementsNear(text, piece, fragment.k).fields) out.push({ start: a, end: b, value: piece.value, weight: b - a });
      return false;
    });
    return out;
  }

  /**
   * Every whole spelling and every piece (each piece once, however many of its windows were hit); a callback
   * returning true stops the walk.
   */
  private eachFind(
    text: string,
    search: NonNullable<Redactor['search']>,
    onSpelling: (needle: string, start: number, end: number) => boolean,
    onPiece: (piece: Piece, fragment: Fragment) => boolean,
  ): void {
    // Pieces found, by secret and alignment (where the secret would start in the text): each piece is extended once.
    const pieces = new Map<string, Map<number, Piece>>();
    for (const h of search.set.search(text)) {
      const needle = search.needles[h.id] as string;
      if (h.id < search.spellings) {
        const heads = search.heads.get(needle);
        if (!heads) {
          if (onSpelling(needle, h.start, h.end)) return;
          continue;
        }
        // The head of long spellings: the text spells the longest of them as far as it goes.
        let best = heads[0] as string;
        let end = h.end;
        for (const full of heads) {
          const e = matchedUpTo(text, h.start, full);
          if (e > end) [best, end] = [full, e];
        }
        if (onSpelling(best, h.start, end)) return;
        continue;
      }
      const fragment = this.fragments.get(needle) as Fragment;
      let byAlignment = pieces.get(fragment.value);
      if (!byAlignment) pieces.set(fragment.value, (byAlignment = new Map()));
      const alignment = h.start - fragment.offset;
      const known = byAlignment.get(alignment);
      // Another window of a piece already found.
      if (known && h.start >= known.start && h.end <= known.end) continue;
      const piece = extendPiece(text, h.start, fragment.value, fragment.offset, fragment.k);
      byAlignment.set(alignment, piece);
      if (onPiece(piece, fragment)) return;
    }
  }

  /**
   * For the leak scan (report/redaction/leak-scan.ts): is a registered secret in the text, whole in any spelling, as a
   * piece carrying PROOF_BITS of it, or cut with every part near the others? The kind only, never the value.
   */
  leakIn(text: string): string | undefined {
    const search = this.needleSearch();
    if (!search) return undefined;
    let kind: string | undefined;
    for (const t of [text, decodedText(text)]) {
      if (t === undefined) continue;
      this.eachFind(t, search, () => ((kind = 'a secret of this run'), true), (piece, fragment) => {
        if (provesAlone(piece, fragment.bits)) kind = 'a piece of a secret of this run';
        else if (complementsNear(t, piece, fragment.k).whole) kind = 'a secret of this run, cut into pieces';
        return kind !== undefined;
      });
      if (kind) return kind;
    }
    return undefined;
  }

  private needleSearch(): NonNullable<Redactor['search']> | undefined {
    if (this.search) return this.search;
    if (this.spellings.size === 0) return undefined;
    // A spelling longer than LONG_SPELLING is searched by its first HEAD characters and followed in the text
    // from there: a 41 KiB JWT's dozen spellings cost a few KiB of automaton, not half a MiB (built again on
    // every token learnt, in every worker).
    const heads = new Map<string, string[]>();
    const whole: string[] = [];
    for (const spelling of this.spellings.keys()) {
      if (spelling.length <= LONG_SPELLING) {
        whole.push(spelling);
        continue;
      }
      const head = spelling.slice(0, HEAD);
      const group = heads.get(head);
      if (group) group.push(spelling);
      else {
        heads.set(head, [spelling]);
        whole.push(head);
      }
    }
    const needles = [...whole, ...this.fragments.keys()];
    this.search = { set: new NeedleSet(needles), needles, spellings: whole.length, heads };
    return this.search;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Length of the longest registered spelling: text cut within this distance of its end may hold a partial secret. */
  get longestSpelling(): number {
    let max = 0;
    for (const s of this.spellings.keys()) if (s.length > max) max = s.length;
    return max;
  }

  private learn(value: string, label: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.entries.has(value)) return;
    this.entries.set(value, { label, learned: true });
    this.addSpellings(value);
  }

  private learnBasic(b64: string): void {
    if (this.basics.has(b64)) return;
    const decoded = Buffer.from(b64, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return this.learn(b64, 'AUTHORIZATION');
    const secret = decoded.slice(colon + 1);
    // `client_id:` with no secret (a request that leaves the secret out on purpose) holds nothing secret: learning
    // its base64 would make the public client id's base64 a "secret" that every curl attachment naming it spells.
    if (secret === '') return;
    this.learn(secret, 'CLIENT_SECRET');
    if (!this.entries.has(secret)) return this.learn(b64, 'AUTHORIZATION');
    this.basics.set(b64, { clientId: decoded.slice(0, colon), secret });
    this.spellings.set(b64, secret);
    this.search = undefined;
    this.announce([b64]);
  }

  private learnFromJson(value: unknown, depth: number): void {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 1000)) this.learnFromJson(item, depth + 1);
      return;
    }
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v === 'string' && JSON_SECRET_FIELDS.has(key)) this.learn(v, key.toUpperCase());
      else if (v && typeof v === 'object') this.learnFromJson(v, depth + 1);
    }
  }

  private learnFromQuery(text: string): void {
    for (const [key, v] of new URLSearchParams(text)) {
      if (FORM_SECRET_FIELDS.has(key)) this.learn(v, key.toUpperCase());
    }
  }

  private addSpellings(value: string): void {
    const forms = textSpellings(value);
    for (const form of forms) this.spellings.set(form, value);
    const windows = windowsOf(value);
    if (windows.length) {
      const w = pieceWindow(value) as { k: number; bits: number };
      for (const { piece, offset } of windows) if (!this.spellings.has(piece) && !this.fragments.has(piece)) this.fragments.set(piece, { value, offset, k: w.k, bits: w.bits });
    }
    this.search = undefined;
    this.announce(forms);
  }
}

/** The variable a curl line refers to for a generic label (ACCESS_TOKEN -> FTF_ACCESS_TOKEN). */
export function envNameFor(label: string): string {
  const clean = sanitizeEnvName(label.toUpperCase());
  return clean.startsWith('FTF_') ? clean : `FTF_${clean}`;
}

/** Explicit labels are the profile's env var names: used as they are, only made shell-safe. */
function sanitizeEnvName(label: string): string {
  const clean = label.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Za-z_]/.test(clean) ? clean : `FTF_${clean}`;
}
