/**
 * Which tests a variant run needs (issue 25; the argument: docs/variants.md, "Why a targeted variant run
 * proves as much as a full one").
 *
 * A variant differs from the clean reference only where code asks the switchboard about it
 * (src/reference/variant-consults.ts). The clean run records, per test, the questions the server asked while
 * handling that test's requests. A variant run then needs exactly:
 * - the whole suite, when any question about it was asked outside a test (building the app, registering
 *   routes, work no request started): that answer shapes every later exchange;
 * - otherwise every test whose recorded questions include it (its name, or its point for `choice(point)`),
 *   plus every test the clean run holds no recording for (nothing is known of those).
 * Every other test got, on the clean server, answers no question about the variant decided; the variant
 * server, asked the same requests, runs the same code to the same answers, so the test's exchanges, and its
 * outcome, are the clean run's.
 * A variant no test reaches is `unreached`: the suite never looks where it differs, which proves nothing,
 * so the matrix counts it as a failure (add a scenario, or drop the variant).
 */
import { PERSONAS, variantInfo } from '../reference/variants.js';
import { consultKey, pointKey } from '../reference/variant-consults.js';
import type { TestRecord } from './pw-report.js';

/** `unselected`: under `--grep`, no SELECTED test reaches the variant (the selection's choice, not a gap of the suite). */
export type TargetScope = 'full' | 'targeted' | 'unreached' | 'unselected';

export interface VariantTarget {
  name: string;
  /** The variants the run has on (a persona expands to several). */
  variants: string[];
  /** The switchboard keys whose questions decide the run's tests. */
  keys: string[];
  scope: TargetScope;
  /** The titles to run (`targeted`); every title for `full`, none for `unreached`. */
  titles: string[];
  /** Why this scope, for the matrix. */
  reason: string;
}

/** A persona's variants, or the variant itself. */
export function expandRun(name: string): string[] {
  return [...(PERSONAS.find((p) => p.name === name)?.variants ?? [name])];
}

/** The switchboard keys of these variants: each name (`is`) and each one's point (`choice`). */
export function keysOf(variants: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const v of variants) {
    keys.add(consultKey(v));
    const info = variantInfo(v);
    if (info) keys.add(pointKey(info.point));
  }
  return [...keys].sort();
}

const hits = (keys: readonly string[], asked: Iterable<string>): string[] => {
  const set = new Set(asked);
  return keys.filter((k) => set.has(k));
};

/** Runs that must take the whole suite whatever the clean run shows: some key of theirs is asked outside any test. */
export function fullByOutside(names: readonly string[], outside: Iterable<string>): string[] {
  const asked = [...outside];
  return names.filter((n) => hits(keysOf(expandRun(n)), asked).length > 0);
}

/** The target of each run, from the clean run's records (which must carry `consults`) and questions asked at start-up. */
export function targetRuns(names: readonly string[], clean: readonly TestRecord[], startupOutside: readonly string[] = [], grepped = false): VariantTarget[] {
  const allTitles = [...new Set(clean.map((r) => r.title))];
  const unrecorded = [...new Set(clean.filter((r) => r.consults === undefined).map((r) => r.title))];
  const outside = new Set<string>(startupOutside);
  for (const r of clean) for (const k of r.consults?.outside ?? []) outside.add(k);
  return names.map((name): VariantTarget => {
    const variants = expandRun(name);
    const keys = keysOf(variants);
    const asideHits = hits(keys, outside);
    if (asideHits.length > 0) {
      return { name, variants, keys, scope: 'full', titles: allTitles, reason: `asked outside a test: ${asideHits.join(', ')}` };
    }
    const touched = clean.filter((r) => r.consults !== undefined && hits(keys, r.consults.inWindow).length > 0).map((r) => r.title);
    if (touched.length === 0) {
      if (grepped) return { name, variants, keys, scope: 'unselected', titles: [], reason: `no selected test makes the clean server ask ${keys.join(' or ')}` };
      return { name, variants, keys, scope: 'unreached', titles: [], reason: `no test makes the clean server ask ${keys.join(' or ')}` };
    }
    const titles = [...new Set([...touched, ...unrecorded])];
    const extra = unrecorded.length > 0 ? ` (+${unrecorded.length} without a recording)` : '';
    return { name, variants, keys, scope: 'targeted', titles, reason: `${touched.length} test(s) ask ${keys.join(' or ')}${extra}` };
  });
}

/**
 * The questions the reference asks while it is built and its routes are registered (no request yet): the
 * runs these decide take the whole suite, so they can start next to the clean run. Builds one recording app.
 */
export async function startupConsults(): Promise<string[]> {
  const consults = await import('../reference/variant-consults.js');
  const wasOn = consults.variantConsultsEnabled();
  consults.enableVariantConsults();
  try {
    const { buildReferenceApp } = await import('../reference/app.js');
    const { app } = await buildReferenceApp({});
    await app.ready();
    await app.close();
    return consults.closeConsultWindow().outside;
  } finally {
    if (!wasOn) consults.resetVariantConsults();
  }
}
