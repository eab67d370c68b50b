/**
 * Reference data types. The identity part (identities.yaml) is the contract with the auth engineer; the
 * domain part (entities, cells, holidays, indications, holdings, history) is filled by data/load.ts.
 */
export interface UserRecord {
  email: string;
  /** Entity codes on this user's allow-list. */
  entities: string[];
}

export interface OAuthClientRecord {
  clientId: string;
  /** The user this client acts as (client_credentials) or the only user allowed to consent (code). */
  user: string;
  grants: Array<'client_credentials' | 'authorization_code' | 'refresh_token'>;
  redirectUris: string[];
  /** Read-only clients may only GET under /api/v1; anything else is 403 "Endpoint not enabled for this API user." */
  readOnly: boolean;
  /** Access-token lifetime of this client in seconds (a test client with short-lived tokens); default: the server's. */
  tokenLifetimeSeconds?: number;
}

export interface IdentityData {
  users: UserRecord[];
  clients: OAuthClientRecord[];
  /** Users that get a sandbox API key at start. */
  apiKeyUsers: string[];
}

// ---------- domain: records returned by the API (field names per the spec) ----------

export interface BankAccount {
  uid: string;
  currency: string;
  lastDigits: string;
}

export interface AccountManager {
  email: string;
  name: string;
  phone: string | null;
}

export interface EntityUser {
  user: string;
  permissions: string[];
  status: 'Pending' | 'Active';
}

export interface Entity {
  code: string;
  name: string;
  status: string;
  type: string;
  onboarding: boolean;
  currency: string;
  bankAccounts: BankAccount[];
  accountManager: AccountManager | null;
  address: string | null;
  countryCode: string | null;
}

export interface EntityRecord extends Entity {
  users: EntityUser[];
}

export interface ObligorExposure {
  code: string;
  name: string;
}

export interface Cell {
  code: string;
  name: string;
  documents: Array<{ name: string; url?: string }>;
  allowedObligors: ObligorExposure[];
}

export interface Holiday {
  country: string;
  date: string;
  name?: string;
}

/** Static part of an indication; `uid` and `subscriptionDates` are computed on the simulated clock. */
export interface IndicationSpec {
  code: string;
  name: string;
  type: 'Fixed' | 'Extendable';
  currency: string;
  /** Millions of currency units (JSON number). */
  minimum: number;
  maximum: number;
  enforceMaximum: boolean;
  cutoffTime: string;
  timezone: string;
  obligorExposureCode: string;
  obligorExposureName: string;
  cellCode: string;
  calendars: string[];
  termMonths: number;
  /** Annualised APY as a decimal string, e.g. "4.25" (percent). */
  yield: string;
  /** Extendables: months between extension option dates. */
  extensionMonths?: number;
  /**
   * A test product whose Fixed uid rotates every this many seconds instead of daily (like the short-lived
   * test client): the clock-less form amounts.indication-uid-rotated waits it out in real time.
   */
  uidRotationSeconds?: number;
}

export type HoldingStatus = 'Cash' | 'Pending' | 'PendingWithdrawal' | 'Issued' | 'Redeemed' | 'Cancelled' | 'CutOff' | 'Processing';

export interface Holding {
  uid: string;
  type: 'Fixed' | 'Extendable';
  entityCode: string;
  cellCode: string;
  obligorExposureCode: string;
  obligorExposureName: string;
  status: HoldingStatus;
  cost: number;
  value: number;
  maturityValue: number;
  issueDate: string;
  maturityDate: string;
  calendars: string[];
  isOnBalanceSheet: boolean;
  currency: string | null;
  cutoffDatetime: string | null;
  extendedMaturityDate: string | null;
  extensionOptionDate: string | null;
  extensionStartDate: string | null;
  extensionStartValue: number | null;
  finalYield: number | null;
  finalized: boolean | null;
  maturityActions: Array<{ action: string; percentage: number }>;
  maturityValueAdjustment: number | null;
  mmyA365F: number | null;
  name: string | null;
  nextFinalYield: number | null;
  nextYield: number | null;
  pricePerShare: number | null;
  productCode: string | null;
  subscriptionUid: string | null;
  yield: number | null;
}

export interface Extension {
  uid: string;
  date: string;
  maturity: string;
  yield: number;
  pricePerShare: number;
  finalYield: number | null;
}

/** A seeded holding: the Holding plus the symbolic key the history refers to. */
export interface SeededHolding {
  key: string;
  holding: Holding;
  extensions: Extension[];
}

export type EventType =
  | 'SUBSCRIBED' | 'ISSUED' | 'SPLIT' | 'EXTENDED' | 'FINALIZED'
  | 'ADJUSTED' | 'CURRENCY_CONVERTED' | 'CASH_MOVED' | 'REDEEMED' | 'CANCELLED';

export const EVENT_TYPES: readonly EventType[] = [
  'SUBSCRIBED', 'ISSUED', 'SPLIT', 'EXTENDED', 'FINALIZED',
  'ADJUSTED', 'CURRENCY_CONVERTED', 'CASH_MOVED', 'REDEEMED', 'CANCELLED',
];

/** One event of the seeded history: kind-specific fields already materialised (decimal strings, dates). */
export interface SeededEvent {
  entityCode: string;
  eventType: EventType;
  fields: Record<string, unknown>;
}

export interface DomainData {
  entities: EntityRecord[];
  cells: Cell[];
  holidays: Holiday[];
  indications: IndicationSpec[];
  holdings: SeededHolding[];
  history: SeededEvent[];
}

/** Filled by data/load.ts. */
export interface ReferenceData extends IdentityData, DomainData {
  seed: number;
}
