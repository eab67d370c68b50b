/**
 * A response schema of schemas/api made portable for the peer tools of bench/real-path.ts (Step CI: Ajv 8
 * draft-07 with ajv-formats; Newman: Ajv 6 in the Postman sandbox): every `$ref` into schemas/api is
 * inlined, and what only our Ajv 2020 instance knows is dropped: `$schema`, `$id`, the `x-*` vocabulary
 * (src/harness/schemas/formats.ts) and formats that are not JSON Schema's own (`decimal`,
 * `iso-date-time`; their patterns stay). The holding schema uses none of the dropped formats, so for the
 * benchmark's workflow the peers check the same rules as we do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_SCHEMAS_DIR, SCHEMA_ID_SUFFIX } from '../../src/harness/schemas/store.js';

const STANDARD_FORMATS = new Set(['date', 'date-time', 'time', 'email', 'uri', 'uuid']);
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const load = (file: string): Json => JSON.parse(readFileSync(join(API_SCHEMAS_DIR, file), 'utf8')) as Json;

function at(doc: Json, pointer: string): Json {
  let node = doc;
  for (const part of pointer.split('/').filter(Boolean)) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !(part in node)) throw new Error(`no ${pointer} in a schema of ${API_SCHEMAS_DIR}`);
    node = node[part] as Json;
  }
  return node;
}

function portable(node: Json, file: string, depth = 0): Json {
  if (depth > 50) throw new Error(`$ref chain too deep in ${file}`);
  if (Array.isArray(node)) return node.map((n) => portable(n, file, depth));
  if (node === null || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const [target = '', pointer = ''] = ref.split('#');
    const targetFile = target || file;
    return portable(at(load(targetFile), pointer), targetFile, depth + 1);
  }
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' || k === '$id' || k === '$defs' || k.startsWith('x-')) continue;
    if (k === 'format' && typeof v === 'string' && !STANDARD_FORMATS.has(v)) continue;
    out[k] = portable(v, file, depth);
  }
  return out;
}

/** `holding` -> schemas/api/holding.schema.json, self-contained and portable. */
export function peerSchema(name: string): Json {
  const file = `${name}${SCHEMA_ID_SUFFIX}`;
  return portable(load(file), file);
}
