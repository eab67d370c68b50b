/**
 * Subscription records and their funding state (sandbox-controllable). The record is what the API returns;
 * funding is internal. Pending subscriptions are kept in a set so the lazy lifecycle stays cheap.
 */
export type SubscriptionStatus = 'Pending' | 'Issued' | 'Cancelled';

export interface Subscription {
  uid: string;
  entityCode: string;
  indicationCode: string;
  indicationUid: string;
  /** Absolute currency units, as sent. */
  amount: number;
  subscriptionDate: string;
  /** The date resolved at subscription time (requested, or defaulted); subscriptionDate moves on late funding. */
  requestedSubscriptionDate: string;
  status: SubscriptionStatus;
  holdingUid: string | null;
  manualReview: boolean;
  createdAt: string;
}

export type FundingState = 'on-time' | 'delayed' | 'arrived';

export interface SubscriptionEntry {
  record: Subscription;
  funding: FundingState;
  /** Simulated instant funding arrived ('arrived' only). */
  arrivedAt: number | null;
}

export class SubscriptionBook {
  private readonly byUid = new Map<string, SubscriptionEntry>();
  readonly pending = new Set<SubscriptionEntry>();

  add(record: Subscription): SubscriptionEntry {
    const entry: SubscriptionEntry = { record, funding: 'on-time', arrivedAt: null };
    this.byUid.set(record.uid, entry);
    if (record.status === 'Pending') this.pending.add(entry);
    return entry;
  }

  get(uid: string): SubscriptionEntry | undefined {
    return this.byUid.get(uid);
  }

  forEntity(entityCode: string): Subscription[] {
    const out: Subscription[] = [];
    for (const e of this.byUid.values()) if (e.record.entityCode === entityCode) out.push(e.record);
    return out;
  }
}
