/**
 * The event stream in a compact columnar form, so 1,000,000 events fit in a few tens of MB:
 * - per event only an entity index and a type index (Uint8Array columns), sequence = position + 1;
 * - payloads of real events (seeded history, lifecycle) in a Map; synthetic payloads are recomputed from
 *   (seed, seq) when a page is materialised, never stored;
 * - one ascending index list per entity and per (entity, type), so a cursor is found by binary search and
 *   totalCount is exact in O(entities x log n).
 */
import { EVENT_TYPES, type EventType } from '../../data/types.js';
import { uuidFrom } from '../../data/prng.js';
import { IntList } from './int-list.js';
import { syntheticFields } from './synthetic.js';

export interface Selection {
  /** Entity indices to include. */
  entities: readonly number[];
  /** Event type index, or null for all types. */
  type: number | null;
}

export class EventStore {
  private entityCol = new Uint8Array(1024);
  private typeCol = new Uint8Array(1024);
  private size = 0;
  private readonly payloads = new Map<number, Record<string, unknown>>();
  private readonly byEntity: IntList[];
  private readonly byEntityType: IntList[][];
  private readonly entityIdx: Map<string, number>;
  /**
   * When each event was recorded, to the second of the simulated clock, as runs: event `runSeq[i]` and the
   * ones after it up to the next run were recorded in second `runSec[i]` (the clock only moves forward, so
   * runs ascend). Events appended before `recordTimes` (the seeded history) have none. Only the fault
   * fence-by-timestamp reads them (sameSecondEnd): the API shows no event time.
   */
  private readonly runSeq: number[] = [];
  private readonly runSec: number[] = [];
  private recordedAt: (() => number) | null = null;

  constructor(
    readonly seed: number,
    readonly entityCodes: readonly string[],
    private readonly currencyOf: (entityCode: string) => string,
  ) {
    if (entityCodes.length > 255) throw new RangeError('at most 255 entities');
    this.entityIdx = new Map(entityCodes.map((c, i) => [c, i]));
    this.byEntity = entityCodes.map(() => new IntList());
    this.byEntityType = entityCodes.map(() => EVENT_TYPES.map(() => new IntList()));
  }

  /** Sequence number of the newest event (0 when empty). */
  get head(): number {
    return this.size;
  }

  /** From now on every appended event is stamped with `now()` (ms) to the second. */
  recordTimes(now: () => number): void {
    this.recordedAt = now;
  }

  /** The last event recorded in the same second as `seq` (`seq` itself when it has no recorded time). */
  sameSecondEnd(seq: number): number {
    let lo = 0;
    let hi = this.runSeq.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.runSeq[mid] ?? 0) <= seq) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return seq;
    const next = this.runSeq[lo];
    return next === undefined ? this.size : next - 1;
  }

  entityIndex(code: string): number | undefined {
    return this.entityIdx.get(code);
  }

  /** Appends one event; `fields` null means a synthetic payload derived from (seed, seq). Returns its seq. */
  append(entityCode: string, type: EventType, fields: Record<string, unknown> | null): number {
    const e = this.entityIdx.get(entityCode);
    if (e === undefined) throw new RangeError(`unknown entity ${entityCode}`);
    const t = EVENT_TYPES.indexOf(type);
    if (this.size === this.entityCol.length) this.grow();
    this.entityCol[this.size] = e;
    this.typeCol[this.size] = t;
    const seq = ++this.size;
    if (this.recordedAt) {
      const sec = Math.floor(this.recordedAt() / 1000);
      if (this.runSec[this.runSec.length - 1] !== sec) {
        this.runSeq.push(seq);
        this.runSec.push(sec);
      }
    }
    if (fields) this.payloads.set(seq, fields);
    this.byEntity[e]?.push(seq);
    this.byEntityType[e]?.[t]?.push(seq);
    return seq;
  }

  private grow(): void {
    const n = this.entityCol.length * 2;
    const ec = new Uint8Array(n);
    ec.set(this.entityCol);
    this.entityCol = ec;
    const tc = new Uint8Array(n);
    tc.set(this.typeCol);
    this.typeCol = tc;
  }

  private lists(sel: Selection): IntList[] {
    const out: IntList[] = [];
    for (const e of sel.entities) {
      const l = sel.type === null ? this.byEntity[e] : this.byEntityType[e]?.[sel.type];
      if (l) out.push(l);
    }
    return out;
  }

  /** Number of selected events with after < seq <= upTo. */
  count(sel: Selection, after: number, upTo: number): number {
    if (upTo <= after) return 0;
    let total = 0;
    for (const l of this.lists(sel)) total += l.upperBound(upTo) - l.upperBound(after);
    return total;
  }

  /** Up to `limit` selected seqs with after < seq <= upTo, ascending (k-way merge of the index lists). */
  range(sel: Selection, after: number, upTo: number, limit: number): number[] {
    const lists = this.lists(sel);
    const pos = lists.map((l) => l.upperBound(after));
    const end = lists.map((l) => l.upperBound(upTo));
    const out: number[] = [];
    while (out.length < limit) {
      let best = -1;
      let bestSeq = Infinity;
      for (let i = 0; i < lists.length; i++) {
        const p = pos[i] ?? 0;
        if (p < (end[i] ?? 0)) {
          const s = lists[i]?.at(p) ?? Infinity;
          if (s < bestSeq) { bestSeq = s; best = i; }
        }
      }
      if (best < 0) break;
      out.push(bestSeq);
      pos[best] = (pos[best] ?? 0) + 1;
    }
    return out;
  }

  /** The newest selected seq <= upTo, or 0. */
  last(sel: Selection, upTo: number): number {
    let best = 0;
    for (const l of this.lists(sel)) {
      const i = l.upperBound(upTo);
      if (i > 0) best = Math.max(best, l.at(i - 1));
    }
    return best;
  }

  entityCodeAt(seq: number): string {
    return this.entityCodes[this.entityCol[seq - 1] ?? 0] ?? '';
  }

  typeAt(seq: number): EventType {
    return EVENT_TYPES[this.typeCol[seq - 1] ?? 0] ?? 'SUBSCRIBED';
  }

  /** Kind-specific fields of event `seq` (materialised lazily for synthetic events). */
  fieldsAt(seq: number): Record<string, unknown> {
    const stored = this.payloads.get(seq);
    if (stored) return stored;
    const entityCode = this.entityCodeAt(seq);
    return syntheticFields(this.seed, seq, this.typeAt(seq), this.currencyOf(entityCode));
  }

  /** Deterministic event uid for (seed, seq). */
  uidAt(seq: number): string {
    return uuidFrom(this.seed, seq, 0x5e9);
  }
}
