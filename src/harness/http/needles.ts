/**
 * A literal multi-needle search (Aho-Corasick) over UTF-16 code units: every occurrence of every needle in one
 * pass over the text, in time linear in the text plus the matches, whatever the needles' number, size or
 * alphabet. The redactor's search: no pattern is ever compiled from secret text, so no secret can make it fail
 * (a RegExp of ~32 KiB tokens exceeded V8's limit and its SyntaxError message was the pattern).
 *
 * Storage is compact because long needles (a 32 KiB token and its base64/hex spellings) are chains of nodes
 * with one child: a node's first child sits in flat arrays, further children (near the root, mostly) in a
 * sorted side table. The root's transitions are a full table, and the search skips characters that start no
 * needle without entering the automaton.
 */

/** A match: needle `id` occupies [start, end) of the text. */
export interface NeedleHit {
  start: number;
  end: number;
  id: number;
}

const ROOT = 0;
/** Characters hashed together by the skip table, and the table's size (small: it stays in the CPU's cache). */
const BLOCK = 3;
const BLOCK_TABLE = 1 << 15;
/** The longest skip window (a shift fits a byte; longer windows gain little). */
const MAX_WINDOW = 32;

function blockKey(a: number, b: number, c: number): number {
  return (Math.imul(a, 0x9e1) + Math.imul(b, 0x3b) + c) & (BLOCK_TABLE - 1);
}

export class NeedleSet {
  private readonly c: Compiled;
  private readonly count: number;
  /** The skip window (0: a needle is shorter than BLOCK + 1, no skipping). */
  private readonly window: number;
  /** By the hash of the BLOCK characters ending a window: how far the window may move on. */
  private readonly shift: Uint8Array;

  /** The automaton of `needles` (needle i reports id i; empty needles are ignored, duplicates report the first). */
  constructor(needles: readonly string[]) {
    let capacity = 1;
    for (const n of needles) capacity += n.length;
    // Sized once: every node is a character of some needle (growing arrays node by node is slow for MiB of needles).
    const firstChar = new Int32Array(capacity).fill(-1);
    const firstNext = new Int32Array(capacity).fill(-1);
    const depth = new Int32Array(capacity);
    const output = new Int32Array(capacity).fill(-1);
    const more = new Map<number, Map<number, number>>();
    let nodes = 1;
    let count = 0;
    needles.forEach((needle, id) => {
      if (needle.length === 0) return;
      let node = ROOT;
      for (let i = 0; i < needle.length; i++) {
        const ch = needle.charCodeAt(i);
        let next = firstChar[node] === ch ? (firstNext[node] as number) : (more.get(node)?.get(ch) ?? -1);
        if (next < 0) {
          next = nodes++;
          depth[next] = i + 1;
          if (firstChar[node] === -1) {
            firstChar[node] = ch;
            firstNext[node] = next;
          } else {
            let m = more.get(node);
            if (!m) more.set(node, (m = new Map()));
            m.set(ch, next);
          }
        }
        node = next;
      }
      if (output[node] === -1) {
        output[node] = id;
        count++;
      }
    });
    this.count = count;
    const c: Compiled = { firstChar, firstNext, depth, output, fail: new Int32Array(nodes), outLink: new Int32Array(nodes).fill(-1), moreStart: new Int32Array(nodes + 1), moreChar: new Int32Array(0), moreNext: new Int32Array(0), rootTable: new Int32Array(65536) };
    // Extra children as a side table (CSR), only for the few nodes that branch.
    let total = 0;
    for (const m of more.values()) total += m.size;
    c.moreChar = new Int32Array(total);
    c.moreNext = new Int32Array(total);
    const branching = [...more.keys()].sort((a, b) => a - b);
    let at = 0;
    let b = 0;
    for (let node = 0; node < nodes; node++) {
      c.moreStart[node] = at;
      if (branching[b] !== node) continue;
      b++;
      for (const [ch, next] of more.get(node) as Map<number, number>) {
        c.moreChar[at] = ch;
        c.moreNext[at++] = next;
      }
    }
    c.moreStart[nodes] = at;
    this.c = c;
    link(c, nodes);
    let shortest = Infinity;
    for (const n of needles) if (n.length > 0 && n.length < shortest) shortest = n.length;
    const m = shortest > BLOCK && shortest !== Infinity ? Math.min(shortest, MAX_WINDOW) : 0;
    this.window = m;
    // A block seen nowhere in a needle's first m characters lets the window move past it: m - BLOCK + 1.
    this.shift = new Uint8Array(m ? BLOCK_TABLE : 0).fill(m ? m - BLOCK + 1 : 0);
    for (const n of needles) {
      if (n.length === 0 || m === 0) continue;
      for (let j = BLOCK - 1; j < m; j++) {
        const key = blockKey(n.charCodeAt(j - 2), n.charCodeAt(j - 1), n.charCodeAt(j));
        const sh = m - 1 - j;
        if (sh < (this.shift[key] as number)) this.shift[key] = sh;
      }
    }
  }

  get needles(): number {
    return this.count;
  }

  /**
   * Every occurrence of every needle, in order of their end. The text is passed over in skips (Wu-Manber):
   * the BLOCK characters ending a window of `window` characters (the shortest needle's length, up to
   * MAX_WINDOW) say how far no needle can start; only where one may start does the automaton run, from the
   * root, until it is back at the root (no needle in progress). Linear in the text plus the matches; where
   * no needle is near, about one table look-up per window - BLOCK + 1 characters.
   */
  search(text: string): NeedleHit[] {
    const hits: NeedleHit[] = [];
    if (this.count === 0) return hits;
    const len = text.length;
    const m = this.window;
    if (m === 0) return this.run(text, 0, hits, false);
    const shift = this.shift;
    let i = m - 1;
    while (i < len) {
      const s = shift[blockKey(text.charCodeAt(i - 2), text.charCodeAt(i - 1), text.charCodeAt(i))] as number;
      if (s > 0) {
        i += s;
        continue;
      }
      this.run(text, i - m + 1, hits, true);
      i = this.stoppedAt + m;
    }
    return hits;
  }

  /** Where the last run() stopped: the automaton back at the root there, or the text's end. */
  private stoppedAt = 0;

  /** The automaton from the root at `from`: to the end, or (untilRoot) until it is back at the root. */
  private run(text: string, from: number, hits: NeedleHit[], untilRoot: boolean): NeedleHit[] {
    const c = this.c;
    const { output, outLink, depth } = c;
    const len = text.length;
    let node = ROOT;
    let i = from;
    for (; i < len; i++) {
      node = step(c, node, text.charCodeAt(i));
      if (node === ROOT) {
        if (untilRoot) break;
        continue;
      }
      let o = (output[node] as number) >= 0 ? node : (outLink[node] as number);
      for (; o >= 0; o = outLink[o] as number) hits.push({ start: i + 1 - (depth[o] as number), end: i + 1, id: output[o] as number });
    }
    this.stoppedAt = i;
    return hits;
  }
}


/** Fail and output links, breadth first (a fail target is shallower than its node, so it is linked already). */
function link(c: Compiled, nodes: number): void {
  const queue = new Int32Array(nodes);
  let head = 0;
  let tail = 0;
  forEachChild(c, ROOT, (ch, child) => {
    c.rootTable[ch] = child;
    queue[tail++] = child;
  });
  while (head < tail) {
    const node = queue[head++] as number;
    forEachChild(c, node, (ch, child) => {
      const target = step(c, c.fail[node] as number, ch);
      c.fail[child] = target;
      c.outLink[child] = (c.output[target] as number) >= 0 ? target : (c.outLink[target] as number);
      queue[tail++] = child;
    });
  }
}

interface Compiled {
  firstChar: Int32Array;
  firstNext: Int32Array;
  depth: Int32Array;
  output: Int32Array;
  fail: Int32Array;
  outLink: Int32Array;
  moreStart: Int32Array;
  moreChar: Int32Array;
  moreNext: Int32Array;
  rootTable: Int32Array;
}

/** The transition from `node` on `ch`, following fail links (the automaton's goto). */
function step(c: Compiled, node: number, ch: number): number {
  let n = node;
  for (;;) {
    if (n === ROOT) return c.rootTable[ch] as number;
    if (c.firstChar[n] === ch) return c.firstNext[n] as number;
    const from = c.moreStart[n] as number;
    const to = c.moreStart[n + 1] as number;
    for (let k = from; k < to; k++) if (c.moreChar[k] === ch) return c.moreNext[k] as number;
    n = c.fail[n] as number;
  }
}

function forEachChild(c: Compiled, node: number, f: (ch: number, child: number) => void): void {
  const first = c.firstChar[node] as number;
  if (first === -1) return;
  f(first, c.firstNext[node] as number);
  for (let k = c.moreStart[node] as number; k < (c.moreStart[node + 1] as number); k++) f(c.moreChar[k] as number, c.moreNext[k] as number);
}
