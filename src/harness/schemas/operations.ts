/**
 * Operation matching: the operation map's path templates compiled against one target's `paths` and
 * `fields`, then (method, path, base, status) -> operation + schema. `{param}` matches exactly one segment;
 * among templates that match, the most specific wins (a literal segment beats a parameter at the first
 * position where they differ); methods match exactly. A path that matches nothing is the `unmatched`
 * operation, whose entries come from the map's `unmatched` section.
 */
import type { OperationMatch } from './types.js';
import type { Base, OperationMap, ResponseSpec } from './operation-map.js';
import { derivedSchema, toPointer } from './derived.js';
import { SchemaError } from './errors.js';

type Segment = { literal: string } | { param: string };

interface CompiledOperation {
  id: string;
  method: string;
  base: Base;
  template: string;
  segments: Segment[];
  /** Status key -> schema id (already resolved against the target's fields). */
  schemas: Record<string, string>;
}

export const UNMATCHED_OPERATION = 'unmatched';

function splitPath(path: string): string[] {
  let p = path.split(/[?#]/)[0] ?? '';
  if (!p.startsWith('/')) p = `/${p}`;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p === '/' ? [] : p.slice(1).split('/');
}

function compileTemplate(template: string): Segment[] {
  return splitPath(template).map((s) => {
    const m = /^\{([^{}/]+)\}$/.exec(s);
    return m ? { param: m[1] ?? '' } : { literal: s };
  });
}

function resolvePathTemplate(path: string, paths: Record<string, string>): string | undefined {
  if (!path.startsWith('$paths.')) return path;
  const key = path.slice('$paths.'.length);
  const value = paths[key];
  if (value === undefined) return undefined; // the target does not offer this operation
  if (typeof value !== 'string' || value.trim() === '' || /^[a-z]+:\/\//i.test(value.trim())) {
    throw new SchemaError('FTF_E_TARGET_PATH_INVALID', `paths.${key} must be a path relative to base_url, got ${JSON.stringify(value)}`, {
      location: { field: `paths.${key}` },
      hint: 'e.g. /cell/{code}; {name} matches one path segment',
    });
  }
  return value.trim().startsWith('/') ? value.trim() : `/${value.trim()}`;
}

type Places = { fields: Record<string, string>; records: Record<string, string | null> };

function resolveSchemas(responses: Record<string, ResponseSpec>, places: Places): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [status, spec] of Object.entries(responses)) {
    // Every place the profile locates (a uid, a record): `null` = the response holds none there, so that place
    // is not checked; the others are, each with its schema, together with the whole-body schema.
    const located = (spec.at ?? []).flatMap((at) => {
      const given = places[at.from][at.field];
      if (given === null) return [];
      return [{ pointer: given === undefined ? at.default : toPointer(given, at.field, at.from), schema: at.schema }];
    });
    if (located.length > 0) out[status] = derivedSchema(spec.schema, located);
    else if (spec.schema !== undefined) out[status] = spec.schema;
  }
  return out;
}

const shapeKey = (op: CompiledOperation): string =>
  `${op.base} ${op.method} ${op.segments.map((s) => ('literal' in s ? `/${s.literal}` : '/{}')).join('')}`;

/** Negative when a is more specific than b (same length assumed). */
function bySpecificity(a: CompiledOperation, b: CompiledOperation): number {
  for (let i = 0; i < a.segments.length; i++) {
    const al = 'literal' in (a.segments[i] as Segment);
    const bl = 'literal' in (b.segments[i] as Segment);
    if (al !== bl) return al ? -1 : 1;
  }
  return 0;
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as Segment;
    const part = parts[i] as string;
    if ('literal' in seg) {
      if (seg.literal !== part) return undefined;
    } else {
      if (part === '') return undefined;
      params[seg.param] = safeDecode(part);
    }
  }
  return params;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function statusEntry(schemas: Record<string, string>, status: number): Pick<OperationMatch, 'schemaId' | 'knownStatuses' | 'statusKeys'> {
  const keys = Object.keys(schemas).sort();
  return {
    schemaId: schemas[String(status)] ?? schemas[`${String(status).charAt(0)}XX`],
    knownStatuses: keys.filter((k) => /^[0-9]+$/.test(k)).map(Number),
    statusKeys: keys,
  };
}

export class OperationMatcher {
  private readonly operations: CompiledOperation[] = [];
  private readonly unmatched: Record<Base, Record<string, string>>;

  constructor(map: OperationMap, paths: Record<string, string>, fields: Record<string, string>, records: Record<string, string | null> = {}) {
    const places: Places = { fields, records };
    const shapes = new Map<string, string>();
    for (const spec of map.operations) {
      const template = resolvePathTemplate(spec.path, paths);
      if (template === undefined) continue;
      const op: CompiledOperation = {
        id: spec.id, method: spec.method, base: spec.base, template,
        segments: compileTemplate(template), schemas: resolveSchemas(spec.responses, places),
      };
      const shape = shapeKey(op);
      const clash = shapes.get(shape);
      if (clash !== undefined) {
        throw new SchemaError('FTF_E_OPERATION_AMBIGUOUS', `operations ${clash} and ${op.id} both resolve to ${op.method} ${template}`, {
          location: { field: spec.path.startsWith('$paths.') ? spec.path.slice(1) : `operations.${op.id}` },
          hint: 'give the target profile paths that tell these operations apart',
        });
      }
      shapes.set(shape, op.id);
      this.operations.push(op);
    }
    this.unmatched = { api: resolveSchemas(map.unmatched.api, places), auth: resolveSchemas(map.unmatched.auth, places) };
  }

  match(method: string, pathname: string, base: Base, status: number): OperationMatch {
    const parts = splitPath(pathname);
    const m = method.toUpperCase();
    let best: { op: CompiledOperation; params: Record<string, string> } | undefined;
    for (const op of this.operations) {
      if (op.base !== base || op.method !== m) continue;
      const params = matchSegments(op.segments, parts);
      if (params && (!best || bySpecificity(op, best.op) < 0)) best = { op, params };
    }
    if (!best) return { operation: UNMATCHED_OPERATION, ...statusEntry(this.unmatched[base], status) };
    return { operation: best.op.id, template: best.op.template, params: best.params, ...statusEntry(best.op.schemas, status) };
  }

  /** Every operation id this target offers (spec operations plus the `$paths` ones it configured). */
  operationIds(): string[] {
    return this.operations.map((o) => o.id);
  }
}
