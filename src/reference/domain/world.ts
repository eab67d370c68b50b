/**
 * The mutable state of one reference server: clock, event stream, holdings, subscriptions, checkpoints,
 * idempotency cache, webhooks. `reset()` rebuilds it from the reference data (same seed -> same state).
 * Routes keep a reference to the Domain object and read its fields per request, so reset is safe.
 */
import type { Faults, Variants } from '../context.js';
import type { EventType, Extension, Holding, ReferenceData } from '../data/types.js';
import { NO_FAULTS } from '../faults.js';
import { NO_VARIANTS } from '../variants.js';
import { EVENT_TYPES } from '../data/types.js';
import { idSequence } from '../data/prng.js';
import { CheckpointBook } from './checkpoints.js';
import { createClock, type SimClock } from './clock.js';
import { CursorCodec } from './events/cursor.js';
import { EventStore } from './events/store.js';
import { IdempotencyCache } from './idempotency.js';
import { IndicationBook } from './indications.js';
import { SubscriptionBook } from './subscriptions.js';

export interface DomainOptions {
  seed: number;
  /** Synthetic events appended after the seeded history at start and on reset. */
  events: number;
  realNow?: () => number;
  /** The fault switchboard (issue 5) for rules that live in the domain (codec, checkpoints, lifecycle). */
  faults?: Faults;
  /** The variant switchboard (issue 12) for choices that live in the domain (id format, uid check). */
  variants?: Variants;
}

/** Variant opaque-ids: a UUID shown as another opaque format (`id_` + its 32 hex digits). */
export function idFormat(variants: Variants): (uuid: string) => string {
  return variants.is('opaque-ids') ? (uuid) => `id_${uuid.replace(/-/g, '')}` : (uuid) => uuid;
}

export class Domain {
  clock!: SimClock;
  store!: EventStore;
  codec!: CursorCodec;
  indications!: IndicationBook;
  holdings!: Map<string, Holding>;
  extensions!: Map<string, Extension[]>;
  subscriptions!: SubscriptionBook;
  checkpoints!: CheckpointBook;
  idempotency!: IdempotencyCache;
  /** user e-mail -> registered webhook URL (never called). */
  webhooks!: Map<string, string>;
  newId!: () => string;
  readonly faults: Faults;
  readonly variants: Variants;

  constructor(readonly data: ReferenceData, private readonly options: DomainOptions) {
    this.faults = options.faults ?? NO_FAULTS;
    this.variants = options.variants ?? NO_VARIANTS;
    this.reset();
  }

  reset(): void {
    const { seed } = this.options;
    this.clock = createClock(this.options.realNow);
    const currency = new Map(this.data.entities.map((e) => [e.code, e.currency]));
    this.store = new EventStore(seed, this.data.entities.map((e) => e.code), (code) => currency.get(code) ?? 'USD');
    this.codec = new CursorCodec(seed, this.faults);
    const format = idFormat(this.variants);
    this.indications = new IndicationBook(this.data.indications, this.data.holidays, seed, format, this.faults);
    this.holdings = new Map(this.data.holdings.map((h) => [h.holding.uid, structuredClone(h.holding)]));
    this.extensions = new Map(this.data.holdings.map((h) => [h.holding.uid, h.extensions]));
    this.subscriptions = new SubscriptionBook();
    const nextUuid = idSequence(seed, 'runtime');
    this.newId = () => format(nextUuid());
    this.checkpoints = new CheckpointBook(this.newId, this.faults);
    this.idempotency = new IdempotencyCache();
    this.webhooks = new Map();
    for (const e of this.data.history) this.store.append(e.entityCode, e.eventType, e.fields);
    this.appendSynthetic(this.options.events);
    this.store.recordTimes(() => this.clock.now());
  }

  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  entityCodes(): string[] {
    return this.data.entities.map((e) => e.code);
  }

  /** Appends `count` synthetic events, entities and kinds round-robin (every combination occurs). */
  appendSynthetic(count: number, entityCodes: readonly string[] = this.entityCodes(), types: readonly EventType[] = EVENT_TYPES): number {
    for (let i = 0; i < count; i++) {
      this.store.append(entityCodes[i % entityCodes.length] ?? '', types[i % types.length] ?? 'CASH_MOVED', null);
    }
    return this.store.head;
  }

  holdingsOf(entityCode: string): Holding[] {
    const out: Holding[] = [];
    for (const h of this.holdings.values()) if (h.entityCode === entityCode) out.push(h);
    return out;
  }
}
