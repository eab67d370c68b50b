/**
 * Issue 30, item 4: one selection and one plan for list, doctor, run and coverage, clock-less forms included.
 * A form is part of the scenario it stands in for: selecting either selects both, it runs inside that
 * scenario's test (so `run --grep '^token\.expiry:'` on a target without a clock runs token.expiry-realtime,
 * never skips "needs clock"), and the counts of `list` are the tests a run declares.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../../src/harness/repo-root.js';
import { PROPERTY_TESTS } from '../../src/harness/properties/catalogue.js';
import { loadScenarioSuite } from '../../src/harness/scenario/load.js';
import { planSelection } from '../../src/harness/scenario/plan.js';
import { selectCatalogue } from '../../src/harness/scenario/selection.js';
import type { Capability } from '../../src/harness/target/types.js';

const SPECS = join(REPO_ROOT, 'specs');
const suite = loadScenarioSuite(SPECS);
const select = (flags: Parameters<typeof selectCatalogue>[2]) => selectCatalogue(suite, SPECS, flags, PROPERTY_TESTS);
const ALL: Capability[] = ['api-key', 'callback', 'clock', 'consent', 'forbidden-entity', 'funding', 'mutation', 'readonly-user', 'sandbox', 'second-user'];
const NO_CLOCK = new Set(ALL.filter((c) => c !== 'clock' && c !== 'funding'));

test('selecting a clock scenario by id selects its clock-less form, which runs on a target without a clock', () => {
  const byId = select({ grep: '^token\\.expiry:' });
  assert.deepEqual(byId.scenarios.map((s) => s.id).sort(), ['token.expiry', 'token.expiry-realtime']);
  const [plan, ...rest] = planSelection(byId.scenarios, { capabilities: NO_CLOCK });
  assert.equal(rest.length, 0, 'one test: the form runs inside it');
  assert.equal(plan!.scenario.id, 'token.expiry');
  assert.equal(plan!.via, 'token.expiry-realtime');
  assert.equal(plan!.skip, undefined, `skipped: ${plan!.skip}`);
  // With a clock the scenario runs itself.
  const [withClock] = planSelection(byId.scenarios, { capabilities: new Set(ALL) });
  assert.equal(withClock!.runs.id, 'token.expiry');
  // The form's id selects the same test.
  assert.deepEqual(select({ grep: '^token\\.expiry-realtime:' }).scenarios.map((s) => s.id).sort(), ['token.expiry', 'token.expiry-realtime']);
});

test('counts agree: the tests list shows are the tests a run declares (no form counted on its own)', () => {
  for (const flags of [{}, { tag: 'amounts' }, { grep: 'indication' }, { tag: 'clock' }]) {
    const selected = select(flags);
    const declared = selected.scenarios.filter((s) => s.formOf === undefined).length;
    const forms = selected.scenarios.filter((s) => s.formOf !== undefined);
    // Every form is there with its scenario, never alone.
    for (const f of forms) assert.ok(selected.scenarios.some((s) => s.id === f.formOf), `${JSON.stringify(flags)}: ${f.id} without ${f.formOf}`);
    assert.equal(planSelection(selected.scenarios, { capabilities: NO_CLOCK }).length, declared, JSON.stringify(flags));
  }
  const all = select({});
  assert.equal(planSelection(all.scenarios, { capabilities: NO_CLOCK }).length + all.extras.length, suite.scenarios.filter((s) => s.formOf === undefined).length + PROPERTY_TESTS.length);
});

test('--clause selects by clause id: every scenario and property covering it, nothing else', () => {
  const picked = select({ clause: 'ERR-AMOUNT-MIN' });
  assert.ok(picked.scenarios.length > 0);
  for (const s of picked.scenarios) assert.ok(s.covers.includes('ERR-AMOUNT-MIN'), s.id);
  assert.deepEqual(picked.scenarios.map((s) => s.id).sort(), suite.scenarios.filter((s) => s.covers.includes('ERR-AMOUNT-MIN')).map((s) => s.id).sort());
  // Every property test whose catalogue entry covers the clause, and no other.
  assert.deepEqual(picked.extras.map((x) => x.id).sort(), PROPERTY_TESTS.filter((p) => p.covers.includes('ERR-AMOUNT-MIN')).map((p) => p.id).sort());
  assert.ok(picked.extras.some((x) => x.id === 'properties.model-stateful'));
  assert.deepEqual(select({ clause: 'EP-EVENT-FENCE,ERR-AMOUNT-MIN' }).extras.map((x) => x.id).sort(), PROPERTY_TESTS.map((p) => p.id).sort());
});

test('list says "runs as" the clock-less form on a profile without a clock, and counts what a run declares', async () => {
  const { cli } = await import('../cli/helpers.js');
  const r = await cli('list', '--target', join(REPO_ROOT, 'fixtures/targets/reference-no-control.yaml'), '--grep', '^token\\.expiry:');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^ {4}runs as token\.expiry-realtime on .*\(its clock-less form/m);
  assert.doesNotMatch(r.out, /^ {4}skipped on/m);
  assert.match(r.out, /^1 test: 1 scenario \(1 as clock-less form\), 0 properties/m);
});

test('each property test names the spec file that declares it; a file none of whose tests are picked is not loaded by a run', async () => {
  const { readFileSync } = await import('node:fs');
  const { unpickedEntries } = await import('../../src/harness/properties/catalogue.js');
  for (const p of PROPERTY_TESTS) {
    const text = readFileSync(join(SPECS, 'properties', `${p.entry}.spec.ts`), 'utf8');
    assert.ok(text.includes(`'${p.id}'`), `specs/properties/${p.entry}.spec.ts declares ${p.id}`);
  }
  const entries = [...new Set(PROPERTY_TESTS.map((p) => p.entry))].sort();
  assert.deepEqual(unpickedEntries(new Set()).sort(), entries, 'a scenario-only selection loads no property file');
  assert.deepEqual(unpickedEntries(new Set(PROPERTY_TESTS.map((p) => p.id))), [], 'the whole catalogue loads them all');
  const picked = new Set(select({ grep: '^properties\\.paging-head-fence' }).extras.map((x) => x.id));
  assert.deepEqual(unpickedEntries(picked).sort(), entries.filter((e) => e !== 'event-paging'), 'one paging property: its file alone');
});
