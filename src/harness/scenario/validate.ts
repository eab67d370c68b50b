/**
 * Structural validation of scenario and step-group files against schemas/scenario.schema.json and
 * schemas/step-group.schema.json (generated from the former, editor-schemas.ts), compiled once per process
 * into the harness's one Ajv instance (schemas/ajv.ts). The scenario schema's `covers` items are the generated
 * clause-id enum (for editors); the loader checks clause ids against the catalogue itself (FTF_SPEC_DIR
 * aware, with a better message), so the enum's errors are dropped here.
 * ajv errors are data; this module turns the relevant ones into located, readable FtfErrors.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { fileValidator } from '../schemas/ajv.js';
import type { FtfError } from '../../shared/errors.js';
import { SCENARIO_SCHEMA_FILE, STEP_GROUP_SCHEMA_FILE } from './editor-schemas.js';
import type { PathSegment, YamlSource } from '../yaml/source.js';
import { scenarioError } from './errors.js';
import { STEP_KINDS } from './types.js';

export { SCENARIO_SCHEMA_FILE, STEP_GROUP_SCHEMA_FILE };

type SchemaNode = { properties?: object; allOf?: SchemaNode[]; $ref?: string };

let compiled: { scenario: ValidateFunction; group: ValidateFunction; root: { $defs: Record<string, SchemaNode> } } | undefined;

function validators(): { scenario: ValidateFunction; group: ValidateFunction; root: { $defs: Record<string, SchemaNode> } } {
  if (!compiled) {
    const root = JSON.parse(readFileSync(SCENARIO_SCHEMA_FILE, 'utf8')) as { $defs: Record<string, SchemaNode> };
    compiled = { scenario: fileValidator(SCENARIO_SCHEMA_FILE), group: fileValidator(STEP_GROUP_SCHEMA_FILE), root };
  }
  return compiled;
}

export function validateScenarioShape(src: YamlSource): FtfError[] {
  return run(validators().scenario, src);
}

export function validateGroupShape(src: YamlSource): FtfError[] {
  return run(validators().group, src);
}

function run(validate: ValidateFunction, src: YamlSource): FtfError[] {
  if (validate(src.value)) return [];
  return relevant(validate.errors ?? []).map((e) => toError(e, src));
}

const pathOf = (e: ErrorObject): PathSegment[] =>
  e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** Keep the errors a reader needs: drop if/then noise and, for oneOf/anyOf, either the branch details or the summary. */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  let list = errors.filter((e) => e.keyword !== 'if' && !isCoversEnum(e));
  // A step without exactly one kind key: that is the one thing to say about it.
  const badSteps = new Set(list.filter(isStepKindError).map((e) => e.instancePath));
  list = list.filter((e) => isStepKindError(e) || !badSteps.has(e.instancePath));
  for (const alt of errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')) {
    const branches = list.filter((e) => e !== alt && e.schemaPath.startsWith(`${alt.schemaPath}/`));
    const deeper = branches.filter((e) => e.instancePath.length > alt.instancePath.length);
    if (deeper.length > 0) list = list.filter((e) => e !== alt && (!branches.includes(e) || deeper.includes(e)));
    else list = list.filter((e) => !branches.includes(e));
  }
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = `${e.instancePath}|${e.keyword}|${e.message}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toError(e: ErrorObject, src: YamlSource): FtfError {
  const path = pathOf(e);
  const where = e.instancePath === '' ? 'the file' : `'${path.join('.')}'`;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params.additionalProperty ?? params.unevaluatedProperty);
      const allowed = allowedProperties(e.parentSchema as SchemaNode | undefined);
      return scenarioError(`unknown field '${key}' in ${where}`, src.locate([...path, key], 'key'), allowed.length ? `allowed here: ${allowed.join(', ')}` : 'remove it or check its spelling');
    }
    case 'required':
      return scenarioError(`${where} is missing the required field '${String(params.missingProperty)}'`, src.locate(path));
    case 'oneOf':
      if (isStepKindError(e)) {
        return scenarioError(`${where} must have exactly one step kind key`, src.locate(path), `step kinds: ${STEP_KINDS.join(', ')}`);
      }
      return scenarioError(`${where} does not match any allowed form`, src.locate(path), describeAlternatives(e));
    case 'enum':
      return scenarioError(`${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`, src.locate(path));
    case 'pattern':
      return scenarioError(`${where} ${JSON.stringify(e.data)} does not match ${String(params.pattern)}`, src.locate(path));
    case 'propertyNames':
      return scenarioError(`${where} has an invalid name '${String(params.propertyName)}'`, src.locate([...path, String(params.propertyName)], 'key'), 'names are letters, digits and _ and start with a letter or _');
    default:
      return scenarioError(`${where} ${e.message ?? 'is invalid'}`, src.locate(path));
  }
}

function describeAlternatives(e: ErrorObject): string {
  const alts = (e.schema as Array<{ type?: unknown; $ref?: string; required?: string[] }> | undefined) ?? [];
  const forms = alts.map((a) => (a.$ref ? a.$ref.split('/').pop() : a.required ? `{${a.required.join(', ')}}` : JSON.stringify(a.type ?? a)));
  return forms.length ? `allowed forms: ${forms.join(' | ')}` : 'see docs/scenario-format.md';
}

/** A clause id outside the generated enum: reported by the loader against the catalogue in use. */
function isCoversEnum(e: ErrorObject): boolean {
  return e.keyword === 'enum' && /^\/covers\/\d+$/.test(e.instancePath);
}

/** The oneOf of schemas/scenario.schema.json#/$defs/step: one `required: [kind]` branch per step kind. */
function isStepKindError(e: ErrorObject): boolean {
  const alts = e.schema as Array<{ required?: string[] }> | undefined;
  return e.keyword === 'oneOf' && Array.isArray(alts) && alts.length > 0 && alts.every((a) => a.required?.length === 1 && (STEP_KINDS as readonly string[]).includes(a.required[0] as string));
}

/** Property names a schema node allows, following allOf and local $refs (for "allowed here" hints). */
function allowedProperties(node: SchemaNode | undefined, depth = 0): string[] {
  if (!node || depth > 5) return [];
  const own = Object.keys(node.properties ?? {});
  const ref = node.$ref?.startsWith('#/$defs/') ? validators().root.$defs[node.$ref.slice('#/$defs/'.length)] : undefined;
  const nested = [...(node.allOf ?? []), ...(ref ? [ref] : [])].flatMap((n) => allowedProperties(n, depth + 1));
  return [...new Set([...own, ...nested])];
}
