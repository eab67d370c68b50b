import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { harnessAjv } from '../../src/harness/schemas/ajv.js';
import { schemaRegistry } from '../../src/harness/schemas/registry.js';
import { validateProfile } from '../../src/harness/target/validate.js';
import { validateScenarioShape } from '../../src/harness/scenario/validate.js';
import { parseYaml, type YamlSource } from '../../src/harness/yaml/source.js';

describe('one Ajv instance', () => {
  it('response, scenario and target schemas all compile into harnessAjv()', () => {
    schemaRegistry().validate('event', {});
    const profile = parseYaml('name: x\n', 'profile.yaml');
    assert.ok(validateProfile(profile.value, profile).length > 0, 'a profile without base_url is rejected');
    const src: YamlSource = { file: 'x.yaml', problems: [], value: { id: 'a.b' }, locate: () => ({ file: 'x.yaml', line: 1, column: 1 }) };
    assert.ok(validateScenarioShape(src).length > 0, 'a scenario without title and steps is rejected');
    const ajv = harnessAjv();
    assert.equal(harnessAjv(), ajv);
    for (const id of ['https://ftf-conformance.dev/schemas/api/event.schema.json', 'https://ftf-conformance.dev/schemas/scenario.schema.json', 'https://ftf-conformance.dev/schemas/target.schema.json']) {
      assert.ok(ajv.getSchema(id), `${id} is in the one instance`);
    }
  });
});
