/**
 * The variant switchboard (issue 12), the mirror of faults.ts: each choice the spec leaves open lives in ONE
 * place that asks `ctx.variants.is('<name>')` (or `choice(point)`). Several variants may be on at once, and
 * together with a fault. Names and their spec basis: variant-registry.ts; docs/variants.md.
 */
import { FtfError } from '../shared/errors.js';
import type { Variants } from './context.js';
import { LIST_KEYS, PERSONAS, VARIANTS, variantInfo, type ProfileValue } from './variant-registry.js';
import { pagingKind, pagingSettings } from './http/paging.js';
import { listPointerOf } from './http/shape.js';

export { LIST_KEYS, PERSONAS, VARIANTS, variantInfo, type ListKey, type PersonaInfo, type ProfileValue, type VariantInfo } from './variant-registry.js';

/** Variant names, then persona names: everything `variants` accepts. */
export function knownVariantNames(): string[] {
  return [...VARIANTS.map((v) => v.name).sort(), ...PERSONAS.map((p) => p.name)];
}

/** Defaults only: what every module gets when built without a context. */
export const NO_VARIANTS: Variants = Object.freeze({ active: Object.freeze([]), is: () => false, choice: () => 'default' });

/**
 * A switchboard with `names` on (persona names expand to their variants). Unknown names are refused with the
 * list of known ones; two variants of one point are refused too (they are two answers to one question).
 */
export function createVariants(names: readonly string[] = []): Variants {
  const expanded = new Set<string>();
  for (const name of names) {
    const persona = PERSONAS.find((p) => p.name === name);
    if (persona) {
      for (const v of persona.variants) expanded.add(v);
    } else if (variantInfo(name)) {
      expanded.add(name);
    } else {
      throw new FtfError('FTF_E_UNKNOWN_VARIANT', `unknown variant "${name}"`, {
        hint: `known variants and personas: ${knownVariantNames().join(', ')}`,
        location: { field: 'variants' },
      });
    }
  }
  const byPoint = new Map<string, string>();
  for (const name of expanded) {
    const { point } = variantInfo(name)!;
    const other = byPoint.get(point);
    if (other !== undefined) {
      throw new FtfError('FTF_E_VARIANT_CONFLICT', `variants "${other}" and "${name}" are two answers to one point (${point})`, {
        hint: 'choose one variant per point', location: { field: 'variants' },
      });
    }
    byPoint.set(point, name);
  }
  if (expanded.size === 0) return NO_VARIANTS;
  const active = Object.freeze(VARIANTS.map((v) => v.name).filter((n) => expanded.has(n)));
  return Object.freeze({
    active,
    is: (name: string) => expanded.has(name),
    choice: (point: string) => byPoint.get(point) ?? 'default',
  });
}

/** The paths (relative to {base_url}) of the operations the spec does not show, as a profile's `paths` writes them. */
export interface ApiPaths {
  health: string;
  cells: string;
  cell: string;
  entities: string;
  entity: string;
  entity_users: string;
  holdings: string;
  holding_extensions: string;
  holidays: string;
  indications: string;
  checkpoints: string;
  checkpoint_delete: string;
}

/** The ONE table of those paths: routes register from it, profileFor reports from it. */
export function apiPaths(v: Variants): ApiPaths {
  const plural = v.is('plural-paths');
  const query = v.is('entity-in-query');
  const s = (one: string, many: string): string => (plural ? many : one);
  return {
    health: s('/health', '/status'),
    cells: s('/cell', '/cells'),
    cell: s('/cell/{code}', '/cells/{code}'),
    entities: s('/entity', '/entities'),
    entity: s('/entity/{code}', '/entities/{code}'),
    entity_users: query ? `${s('/user', '/users')}?entity_code={code}` : s('/entity/{code}/user', '/entities/{code}/users'),
    holdings: query ? `${s('/holding', '/holdings')}?entity_code={entity_code}` : s('/holding/{entity_code}', '/holdings/{entity_code}'),
    holding_extensions: s('/holding/{entity_code}/{holding_uid}/extension', '/holding/{entity_code}/{holding_uid}/extensions'),
    holidays: `${s('/holiday', '/holidays')}${v.is('holidays-by-year') ? '/{year}' : ''}`,
    indications: s('/indication', '/indications'),
    checkpoints: s('/event/checkpoint', '/event/checkpoints'),
    checkpoint_delete: s('/event/checkpoint/{name}', '/event/checkpoints/{name}'),
  };
}

/** `/holding/{entity_code}?x={y}` -> `/holding/:entity_code` (the query part is not routed). */
export function fastifyPath(template: string): string {
  return (template.split('?', 1)[0] ?? template).replace(/\{([A-Za-z_]+)\}/g, ':$1');
}

/**
 * The target-profile settings a harness needs for the active variants: every path that differs from the
 * default table, then each variant's own settings (variants of one point never both set a key).
 */
export function profileFor(v: Variants): Record<string, ProfileValue> {
  const out: Record<string, ProfileValue> = {};
  const base = apiPaths(NO_VARIANTS) as unknown as Record<string, string>;
  const now = apiPaths(v) as unknown as Record<string, string>;
  for (const [key, path] of Object.entries(now)) if (base[key] !== path) out[`paths.${key}`] = path;
  for (const name of v.active) Object.assign(out, variantInfo(name)!.profile);
  // Lists: the pointer and the paging come from the one table of layouts (http/shape.ts, http/paging.ts), so
  // a list-layout variant, an all-lists paging variant and a per-list one compose (the most specific wins).
  for (const key of LIST_KEYS) {
    for (const k of Object.keys(out)) if (k === `fields.${key}_list` || k.startsWith(`paging.${key}.`)) delete out[k];
    const pointer = listPointerOf(v, key);
    if (pointer !== listPointerOf(NO_VARIANTS, key)) out[`fields.${key}_list`] = pointer;
    const kind = pagingKind(v, key);
    if (kind !== null) Object.assign(out, pagingSettings(key, kind));
  }
  return out;
}
