/**
 * Opaque event cursors: "ev1." + base64url("<seq>.<tag>"), where tag is a seeded hash of seq so that a
 * forged or foreign cursor (another seed, edited digits) is refused. seq 0 is the origin (before the first
 * event): a valid start_cursor meaning "from the beginning", used for checkpoints on an empty stream.
 */
import type { Faults } from '../../context.js';
import { NO_FAULTS } from '../../faults.js';
import { hash32 } from '../../data/prng.js';

const PREFIX = 'ev1.';
const BODY = /^[A-Za-z0-9_-]{1,64}$/;
const MOVING_HEAD = 'head';

export class CursorCodec {
  /** The cursor prefix; the fault event-cursor-prefix-missing drops it (consistently, so cursors still work). */
  private readonly prefix: string;

  constructor(private readonly seed: number, private readonly faults: Faults = NO_FAULTS) {
    this.prefix = faults.on('event-cursor-prefix-missing') ? '' : PREFIX;
  }

  /** Only under the fault end-cursor-moving: a cursor that decodes to the head at the time it is used. */
  movingHead(): string {
    return this.prefix + Buffer.from(MOVING_HEAD, 'utf8').toString('base64url');
  }

  private tag(seq: number): string {
    return hash32(this.seed, seq, 0xc0de).toString(36);
  }

  encode(seq: number): string {
    return this.prefix + Buffer.from(`${seq}.${this.tag(seq)}`, 'utf8').toString('base64url');
  }

  /** The sequence number of a cursor, or null if it is malformed, forged or beyond `head`. */
  decode(cursor: string, head: number): number | null {
    if (!cursor.startsWith(this.prefix)) return null;
    const body = cursor.slice(this.prefix.length);
    if (!BODY.test(body)) return null;
    const text = Buffer.from(body, 'base64url').toString('utf8');
    if (text === MOVING_HEAD && this.faults.on('end-cursor-moving')) return head;
    const m = /^(0|[1-9][0-9]{0,9})\.([0-9a-z]{1,8})$/.exec(text);
    if (!m) return null;
    const seq = Number(m[1]);
    if (seq > head || m[2] !== this.tag(seq)) return null;
    return seq;
  }
}
