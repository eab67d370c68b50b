/**
 * Secrets cut into pieces (issue 29: "echoes split over two fields"): a target echoing a secret cut at ANY point
 * over two fields leaves nothing of it in the redacted text, and the leak scan's search (Redactor.leakIn)
 * finds the unredacted echo; ordinary report text with secrets registered is neither changed nor flagged.
 * Split points: every point for mid-sized secrets, random ones (seeded, printed) for a 32 KiB token. Also the
 * multi-needle search itself (needles.ts, with its skip table) against a naive search.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { NeedleSet } from '../../src/harness/http/needles.js';
import { pieceWindow } from '../../src/harness/http/pieces.js';
import { Redactor } from '../../src/harness/http/redactor.js';

const SEED = Number(process.env.FTF_PIECES_SEED ?? Date.now() % 1_000_000);
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const pick = (n: number): number => Math.floor(random() * n);
const filler = (n: number): string => 'x'.repeat(n);

/** The echo: the two parts in two JSON fields, in either order, some characters apart. */
function echo(a: string, b: string, gap: number, reversed: boolean): string {
  const first = `"first":"${a}"`;
  const last = `"last":"${b}"`;
  return `{"error":"invalid_client",${reversed ? last : first},"pad":"${filler(gap)}",${reversed ? first : last},"n":1}`;
}

/** Bytes from the seeded generator: a failing case comes back with its printed seed (FTF_PIECES_SEED). */
const seededBytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => pick(256)));
const SECRETS: Array<[string, string]> = [
  ['24 hex characters', seededBytes(12).toString('hex')],
  ['16 hex characters', seededBytes(8).toString('hex')],
  ['a 43-character base64url token', seededBytes(32).toString('base64url')],
  ['a Sanctum-style token', `7|${seededBytes(30).toString('base64url').slice(0, 40)}`],
  // Starts and ends with a token joiner: its one-character complements ('_', '-') stand inside `invalid_client`
  // too, glued to letters there (a random base64url token did this in about 1 run in 30).
  ['a base64url token with a joiner at each end', `_${seededBytes(30).toString('base64url').slice(0, 40)}-`],
];

function redactorOf(secret: string): Redactor {
  const r = new Redactor();
  r.addSecret(secret, 'FTF_PRIMARY_CLIENT_SECRET');
  return r;
}

function checkCut(r: Redactor, secret: string, at: number, gap: number, reversed: boolean): void {
  const a = secret.slice(0, at);
  const b = secret.slice(at);
  const text = echo(a, b, gap, reversed);
  const where = `cut at ${at} of ${secret.length}, ${gap} apart${reversed ? ', reversed' : ''} (seed ${SEED})`;
  // Text, not JSON: a part of one character also goes where it stands as a field near the piece (`"n":1`).
  const out = r.redactText(text);
  assert.ok(out.includes('"first":"[REDACTED:FTF_PRIMARY_CLIENT_SECRET]"'), `the first part is redacted: ${where}`);
  assert.ok(out.includes('"last":"[REDACTED:FTF_PRIMARY_CLIENT_SECRET]"'), `the second part is redacted: ${where}`);
  assert.ok(out.startsWith('{"error":"invalid_client",'), 'the text around stays');
  assert.ok(r.leakIn(text), `the leak scan's search finds the unredacted echo: ${where}`);
  assert.equal(r.leakIn(r.redactText(text)), undefined, `and nothing in the redacted one: ${where}`);
}

describe('a secret cut into two fields at any point', () => {
  for (const [name, secret] of SECRETS) {
    it(`${name}: every cut point, the parts next to each other or up to 200 characters apart, in either order`, () => {
      const r = redactorOf(secret);
      for (let at = 1; at < secret.length; at++) checkCut(r, secret, at, pick(200), random() < 0.5);
    });
  }

  it('a 32 KiB token cut at 40 random points (and next to its ends)', () => {
    const token = `eyJhbGciOiJIUzI1NiJ9.${randomBytes(24 * 1024).toString('base64url')}.sig`;
    const points = [1, 2, 7, 8, 9, 63, 64, 65, token.length - 1, token.length - 9, ...Array.from({ length: 30 }, () => 1 + pick(token.length - 1))];
    const r = redactorOf(token);
    for (const at of points) checkCut(r, token, at, pick(200), random() < 0.5);
  });

  it('pieces carry 32 to 48 bits of the secret: the window k per length and alphabet', () => {
    assert.equal(pieceWindow(randomBytes(12).toString('hex'))?.k, 12);
    assert.equal(pieceWindow(randomBytes(8).toString('hex'))?.k, 8);
    assert.equal(pieceWindow(`Ab1-${randomBytes(30).toString('base64url')}`)?.k, 8, 'base64url with - or _: 6.55 bits a character');
    assert.equal(pieceWindow(`Zz1${randomBytes(30).toString('hex')}`)?.k, 9, 'letters and digits: 5.95 bits a character');
    assert.equal(pieceWindow('12345678901234567890')?.k, 10);
    assert.equal(pieceWindow('abcdef12'), undefined, 'a short secret is found whole only');
  });
});

describe('no piece is seen in ordinary report text', () => {
  it('a MiB of ids, cursors and digests is neither changed by the redaction nor flagged by the scan', () => {
    const r = new Redactor();
    const secrets = [randomBytes(12).toString('hex'), randomBytes(24).toString('hex'), randomBytes(32).toString('base64url'), randomBytes(24).toString('base64url')];
    secrets.forEach((s, i) => r.addSecret(s, `FTF_SECRET_${i}`));
    const events: string[] = [];
    for (let size = 0; size < 1024 * 1024; size += (events[events.length - 1] as string).length + 1) {
      events.push(JSON.stringify({ uid: randomBytes(16).toString('hex'), cursor: randomBytes(18).toString('base64url'), digest: randomBytes(32).toString('hex'), amount: String(pick(1e9)) }));
    }
    const text = `[${events.join(',')}]`;
    assert.equal(r.redactText(text), text);
    assert.equal(r.leakIn(text), undefined);
  });
});

describe('the multi-needle search (Aho-Corasick with skips)', () => {
  it('finds exactly what a naive search finds, for needles of every length and alphabet', () => {
    const alphabets = ['ab', 'abc', 'abcdef0123456789', 'aé\u{1F600}b'];
    for (let round = 0; round < 200; round++) {
      const alphabet = [...(alphabets[round % alphabets.length] as string)];
      const word = (n: number): string => Array.from({ length: n }, () => alphabet[pick(alphabet.length)]).join('');
      const needles = Array.from({ length: 1 + pick(12) }, () => word(1 + pick(round % 3 === 0 ? 20 : 9) + (round % 2 ? 6 : 0)));
      const text = word(pick(3000));
      const set = new NeedleSet(needles);
      const got = set.search(text).map((h) => `${h.start}-${h.end}-${h.id}`).sort();
      const want: string[] = [];
      needles.forEach((n, id) => {
        if (needles.indexOf(n) !== id) return;
        for (let at = text.indexOf(n); at >= 0; at = text.indexOf(n, at + 1)) want.push(`${at}-${at + n.length}-${id}`);
      });
      assert.deepEqual(got, want.sort(), `round ${round} (seed ${SEED})`);
    }
  });
});
