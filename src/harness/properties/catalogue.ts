/**
 * The property tests of specs/properties (ids, titles, tags): declared there, selected with the YAML
 * catalogue by scenario/selection.ts so `--grep/--tag/--shard` pick them the same way in every command.
 */
import type { Capability } from '../target/types.js';

export interface PropertyTest {
  id: string;
  title: string;
  tags: readonly string[];
  /** Capabilities it cannot run without (as a scenario's `needs:`): missing -> skipped, and `doctor` says so. */
  needs?: readonly Capability[];
  /** Profile roles (`table.role`, as scenario/roles.ts derives them for scenarios) it cannot run without. */
  roles?: readonly string[];
  /** Clause ids it checks: annotated on its test (specs/properties), selected by `--clause`, counted by coverage. */
  covers: readonly string[];
  /** The spec file that declares it: specs/properties/<entry>.spec.ts (a run whose selection picks none of a file's tests does not load it). */
  entry: string;
}

/** The clauses every paging property checks. */
export const PAGING_CLAUSES = ['EP-EVENT-PAGING', 'EP-EVENT-FENCE', 'EP-EVENT-PAGE-LIMIT', 'EP-EVENT-TOTAL', 'EVS-ORDER'] as const;
/** The clauses the stateful model property checks (named in every violation). */
export const MODEL_CLAUSES = [
  'EP-SUBSCRIBE-IDEMPOTENCY-KEY', 'EP-SUBSCRIBE-REPLAY', 'EP-SUBSCRIBE-NEW-KEY', 'ERR-AMOUNT-MIN', 'ERR-INDICATION-UID',
  'EP-CHECKPOINT-CREATE', 'EP-CHECKPOINT-CYCLE', 'EP-CHECKPOINT-CONFLICT', 'EP-CHECKPOINT-SCOPE', 'RES-CHECKPOINT',
  ...PAGING_CLAUSES,
  'RES-CHECKPOINT-DELETE', 'ERR-NOT-FOUND', 'EP-WEBHOOK', 'RES-WEBHOOK-DELETE', 'AUTH-ENDPOINT-403', 'AUTH-ENTITY-403',
  'AUTH-EVENT-SCOPE', 'EP-ENTITY-SCOPE', 'EP-SUBSCRIPTION-LIST', 'EP-HOLDING-GET', 'ST-HOLDING-AFTER-SUBSCRIPTION',
  'AUTH-BEARER', 'AUTH-TOKEN-REQUEST', 'AUTH-TOKEN-RESPONSE', 'AUTH-CLIENT-CREDENTIALS', 'AUTH-CODE-REDIRECT', 'AUTH-CODE-PKCE',
  'AUTH-REFRESH-ROTATION', 'AUTH-API-KEY', 'EP-INDICATION-GET',
] as const;

export const PROPERTY_TESTS: readonly PropertyTest[] = [
  { id: 'properties.paging-fenced-slice', title: 'paging: fenced walks return exactly the fenced slice of the stream', tags: ['@properties', '@paging'], covers: PAGING_CLAUSES, entry: 'event-paging' },
  { id: 'properties.paging-head-fence', title: 'paging: a fence taken from pageInfo.endCursor holds while the stream grows', tags: ['@properties', '@paging'], covers: PAGING_CLAUSES, entry: 'event-paging' },
  // @exclusive: its model assumes no one else writes the stream, checkpoints or keys while it runs, so against a
  // shared target it runs in the one-at-a-time phase (src/harness/shared-phases.ts).
  {
    id: 'properties.model-stateful',
    title: 'model: subscribes, checkpoint writes and event reads agree with the model of the spec',
    tags: ['@properties', '@model', '@mutation', '@exclusive'],
    needs: ['mutation'],
    roles: ['indications.primary', 'entities.allowed'],
    covers: MODEL_CLAUSES,
    entry: 'model',
  },
  // Not random: every amount limit the clauses state, at, just inside and just outside its bound at each scale
  // (src/harness/boundaries/), generated from the indications the profile names; it writes (subscriptions).
  {
    id: 'boundaries.amounts',
    title: 'boundaries: amounts at, just inside and just outside minimum and maximum x 1,000,000, in whole units, cents and sub-cent',
    tags: ['@properties', '@boundaries', '@amounts', '@mutation'],
    needs: ['mutation'],
    roles: ['indications.primary', 'entities.allowed'],
    covers: ['ERR-AMOUNT-MIN', 'ERR-AMOUNT-MAX', 'EP-SUBSCRIBE-BODY'],
    entry: 'boundaries',
  },
];

export const propertyTest = (id: string): PropertyTest => {
  const found = PROPERTY_TESTS.find((p) => p.id === id);
  if (!found) throw new Error(`no property test '${id}' in src/harness/properties/catalogue.ts`);
  return found;
};

/** The property spec files (PropertyTest.entry) none of whose tests are in `picked`: Playwright need not load them. */
export const unpickedEntries = (picked: ReadonlySet<string>): string[] =>
  [...new Set(PROPERTY_TESTS.map((p) => p.entry))].filter((entry) => !PROPERTY_TESTS.some((p) => p.entry === entry && picked.has(p.id)));
