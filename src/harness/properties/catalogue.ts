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
}

export const PROPERTY_TESTS: readonly PropertyTest[] = [
  { id: 'properties.paging-fenced-slice', title: 'paging: fenced walks return exactly the fenced slice of the stream', tags: ['@properties', '@paging'] },
  { id: 'properties.paging-head-fence', title: 'paging: a fence taken from pageInfo.endCursor holds while the stream grows', tags: ['@properties', '@paging'] },
  // @exclusive: its model assumes no one else writes the stream, checkpoints or keys while it runs, so against a
  // shared target it runs in the one-at-a-time phase (src/harness/shared-phases.ts).
  {
    id: 'properties.model-stateful',
    title: 'model: subscribes, checkpoint writes and event reads agree with the model of the spec',
    tags: ['@properties', '@model', '@mutation', '@exclusive'],
    needs: ['mutation'],
    roles: ['indications.primary', 'entities.allowed'],
  },
];

export const propertyTest = (id: string): PropertyTest => {
  const found = PROPERTY_TESTS.find((p) => p.id === id);
  if (!found) throw new Error(`no property test '${id}' in src/harness/properties/catalogue.ts`);
  return found;
};
