/**
 * BENCHMARK BASELINE ONLY (bench/redaction.ts): the redactor as it was before issue 29, one RegExp of every
 * spelling, which a ~32 KiB token breaks (V8 size limit). Never imported by src/. Text below as it was.
 *
 * The one registry of secret values of a run. Everything written anywhere (reports, HAR, attachments, curl
 * lines, error excerpts) passes through `redactText` / `redactHeaders`. Values are registered explicitly
 * (client secrets with their env var names, tokens obtained by the auth client) or learned from traffic
 * (token responses, form bodies, redirect Locations).
 *
 * Values shorter than MIN_SECRET_LENGTH (6) are ignored: replacing e.g. "abc" everywhere would mangle
 * reports with false positives, and no real credential is that short.
 */
export const MIN_SECRET_LENGTH = 6;

/** Headers whose values are always secret, whatever they contain. */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** JSON fields whose string values are learned as secrets (not `code`: API records use it for product codes). */
const JSON_SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret', 'code_verifier', 'api_key']);
/** Form / query fields learned as secrets (only token-endpoint forms and redirects carry these). */
const FORM_SECRET_FIELDS = new Set([...JSON_SECRET_FIELDS, 'code', 'password']);
/** Can a JSON text hold a secret field at all? (`\u` escapes may spell a key name, so they always walk.) */
const SECRET_KEY_HINT = new RegExp(`${[...JSON_SECRET_FIELDS].join('|')}|\\\\u`);

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
  private pattern: RegExp | undefined;
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
    this.pattern = undefined;
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
    const canonical = this.spellings.get(value);
    const entry = canonical === undefined ? undefined : this.entries.get(canonical);
    if (!entry) return undefined;
    return { label: entry.label, env: entry.learned ? envNameFor(entry.label) : sanitizeEnvName(entry.label) };
  }

  /** Splits text into plain parts and secret occurrences (longest secret first). */
  segments(s: string): Segment[] {
    const pattern = this.regex();
    if (!pattern || s === '') return [{ text: s }];
    const out: Segment[] = [];
    let last = 0;
    for (const m of s.matchAll(pattern)) {
      const at = m.index ?? 0;
      if (at > last) out.push({ text: s.slice(last, at) });
      out.push(this.describe(m[0]) ?? { label: 'SECRET', env: 'FTF_SECRET' });
      last = at + m[0].length;
    }
    if (last < s.length) out.push({ text: s.slice(last) });
    return out;
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
    this.learn(secret, 'CLIENT_SECRET');
    if (!this.entries.has(secret)) return this.learn(b64, 'AUTHORIZATION');
    this.basics.set(b64, { clientId: decoded.slice(0, colon), secret });
    this.spellings.set(b64, secret);
    this.pattern = undefined;
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
    const forms = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)];
    for (const form of forms) if (form.length >= MIN_SECRET_LENGTH) this.spellings.set(form, value);
    this.pattern = undefined;
    this.announce(forms.filter((f) => f.length >= MIN_SECRET_LENGTH));
  }

  private regex(): RegExp | undefined {
    if (this.pattern || this.spellings.size === 0) return this.pattern;
    const alternatives = [...this.spellings.keys()].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.pattern = new RegExp(alternatives.join('|'), 'g');
    return this.pattern;
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
