/**
 * Pieces of a secret: a target may echo a secret cut in two (or more) at any point, e.g. over two JSON fields.
 * Every window of `k` characters of a secret (pieceWindow) is a needle of the redactor's one search; a window
 * found is extended as far as the text goes on spelling the secret (extendPiece), and the parts of the secret
 * the piece lacks, its complements, are looked for within NEARBY characters (complementsNear).
 *
 * The window k: a piece must carry at least PIECE_BITS of the secret (a random piece of a report, a hex uid or
 * a cursor, then holds one by chance about once in 2^32 / windows positions: rare, and a false hit only
 * redacts an unrelated run of characters), and up to PROOF_BITS (2^-48: never by chance) when the secret is
 * long enough that half of it still holds a window. So a secret whose half carries 32 bits (a hex secret of 16
 * characters, a base64url one of 12 or more) is found cut at ANY point: the longer part holds a window.
 * k = max(6, ceil(32 / bits), min(ceil(48 / bits), ceil(length / 2))), bits per character from the classes
 * the secret uses (bitsPerChar): 24 hex characters -> 12, a 43-character base64url token -> 8, a 16-character
 * hex secret -> 8, 20 decimal digits -> 10. Shorter secrets are found whole in every spelling, and cut where a
 * part holds a window. Secrets over 512 characters (a 32 KiB JWT) have a window every 64 characters: any
 * part of k + 63 characters holds one (and the longer part of such a secret has over 256).
 *
 * Complements shorter than a window are redacted where they stand as a field of their own (not glued to a
 * letter or digit; an edge '_' or '-' next to a letter or digit is glued too: the '_' of `invalid_client`) near the piece: a secret cut after its first character leaves nothing of it. The leak scan
 * (report/redaction/leak-scan.ts) counts a piece as a leak when it carries PROOF_BITS, or when every complement occurs
 * near it (the whole secret, cut): never a piece alone that chance could explain.
 */
export const PIECE_BITS = 32;
export const PROOF_BITS = 48;
/** How far from a piece its complements are looked for (characters, either side). */
export const NEARBY = 256;
const MIN_WINDOW = 6;
const DENSE_UP_TO = 512;
const SPARSE_STRIDE = 64;

/** Information a character of the secret carries, from the character classes it uses (hex counts as 16 symbols). */
export function bitsPerChar(value: string): number {
  if (/^[0-9]+$/.test(value)) return Math.log2(10);
  if (/^[0-9a-fA-F]+$/.test(value)) return 4;
  let symbols = 0;
  if (/[0-9]/.test(value)) symbols += 10;
  if (/[a-z]/.test(value)) symbols += 26;
  if (/[A-Z]/.test(value)) symbols += 26;
  if (/[^0-9a-zA-Z]/.test(value)) symbols += 32;
  return Math.log2(symbols);
}

/** The window length and the distance between windows for a secret; undefined: too short to have pieces. */
export function pieceWindow(value: string): { k: number; stride: number; bits: number } | undefined {
  const bits = bitsPerChar(value);
  const half = Math.ceil(value.length / 2);
  const k = Math.max(MIN_WINDOW, Math.ceil(PIECE_BITS / bits), Math.min(Math.ceil(PROOF_BITS / bits), half));
  if (k >= value.length) return undefined;
  return { k, stride: value.length > DENSE_UP_TO ? SPARSE_STRIDE : 1, bits };
}

/** The windows of a secret (needles) with their offsets in it. */
export function windowsOf(value: string): Array<{ piece: string; offset: number }> {
  const w = pieceWindow(value);
  if (!w) return [];
  const out: Array<{ piece: string; offset: number }> = [];
  const offsets: number[] = [];
  for (let at = 0; at + w.k <= value.length; at += w.stride) offsets.push(at);
  // The last window, so that a part ending the secret is found however the stride falls.
  if (offsets[offsets.length - 1] !== value.length - w.k) offsets.push(value.length - w.k);
  for (const at of offsets) {
    const piece = value.slice(at, at + w.k);
    // A window the secret repeats (a JWT's claims: `","role-` again and again) says nothing of where it stands.
    if (value.indexOf(piece) === at && value.indexOf(piece, at + 1) < 0) out.push({ piece, offset: at });
  }
  return out;
}

export interface Piece {
  /** Where the piece stands in the text. */
  start: number;
  end: number;
  value: string;
  /** Which part of the secret it spells: value.slice(from, to). */
  from: number;
  to: number;
}

/** A window found at text[start..] spelling value[offset..offset+k], extended while the text goes on spelling the secret. */
export function extendPiece(text: string, start: number, value: string, offset: number, k: number): Piece {
  let s = start;
  let from = offset;
  while (s > 0 && from > 0 && text.charCodeAt(s - 1) === value.charCodeAt(from - 1)) {
    s--;
    from--;
  }
  let e = start + k;
  let to = offset + k;
  while (e < text.length && to < value.length && text.charCodeAt(e) === value.charCodeAt(to)) {
    e++;
    to++;
  }
  return { start: s, end: e, value, from, to };
}

const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** A token's joiners ('_', '-'): a complement's edge of these next to a letter or digit is inside a word (`invalid_client`). */
const isJoiner = (c: number): boolean => c === 95 || c === 45;
/** Is a complement edge `edge` glued to its neighbour `next` (part of a longer word, not a field of its own)? */
const glued = (next: number, edge: number): boolean => isWordChar(next) && (isWordChar(edge) || isJoiner(edge));

/**
 * The complements of a piece near it: `fields`, where one stands as a field of its own (for the redaction;
 * only complements shorter than `k`, longer ones are pieces themselves), and `whole`, whether every complement
 * occurs near it at all (for the leak scan: the whole secret is there, cut).
 */
export function complementsNear(text: string, piece: Piece, k: number): { fields: Array<[number, number]>; whole: boolean } {
  const lo = Math.max(0, piece.start - NEARBY);
  const hi = Math.min(text.length, piece.end + NEARBY);
  const fields: Array<[number, number]> = [];
  let whole = true;
  // Searched in the neighbourhood only: a text with many pieces costs pieces x NEARBY, never pieces x text.
  const near = text.slice(lo, hi);
  for (const part of [piece.value.slice(0, piece.from), piece.value.slice(piece.to)]) {
    if (part === '') continue;
    let seen = false;
    for (let i = near.indexOf(part); i >= 0; i = near.indexOf(part, i + 1)) {
      const at = lo + i;
      seen = true;
      if (part.length >= k) break;
      const before = at > 0 && glued(text.charCodeAt(at - 1), part.charCodeAt(0));
      const after = at + part.length < text.length && glued(text.charCodeAt(at + part.length), part.charCodeAt(part.length - 1));
      if (!before && !after) fields.push([at, at + part.length]);
    }
    if (!seen) whole = false;
  }
  return { fields, whole };
}

/** Does the piece prove a leak on its own (PROOF_BITS of the secret)? */
export function provesAlone(piece: Piece, bits: number): boolean {
  return (piece.to - piece.from) * bits >= PROOF_BITS;
}
