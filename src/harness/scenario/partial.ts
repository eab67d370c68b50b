/**
 * What a broken scenario file still says about itself (id, title, tags, covers, family), so a selection can
 * name it (scenario/selection.ts) and its errored test can carry its id and clauses. A file that parses gives
 * its string fields as they are. A file with a YAML syntax error is read block by block (each top-level key
 * with its indented lines, parsed alone): the broken block is lost, the others are not. A field that cannot
 * be read is listed in `unknown`: the file could say anything there, so every selection that looks at that
 * field keeps it ("could have selected it" — a broken file is never dropped silently).
 */
import { readFileSync } from 'node:fs';
import { parseYaml } from '../yaml/source.js';

export const PARTIAL_FIELDS = ['id', 'title', 'tags', 'covers', 'family'] as const;
export type PartialField = (typeof PARTIAL_FIELDS)[number];

export interface PartialScenario {
  id?: string;
  title?: string;
  tags?: string[];
  covers?: string[];
  family?: string;
  /** Fields the file may carry but that could not be read (a syntax error in them, an unreadable file). */
  unknown?: PartialField[];
}

/** A file that cannot be read at all: every field is unknown. */
export const UNREADABLE: PartialScenario = { unknown: [...PARTIAL_FIELDS] };

type Doc = Record<string, unknown>;
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : undefined);

/**
 * The fields of a parsed document. A document that is no mapping, or has no string id, could be any scenario:
 * its id (and title) are unknown.
 */
export function partialOfValue(value: unknown, salvaged = false): PartialScenario {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return salvaged ? {} : UNREADABLE;
  const doc = value as Doc;
  const unknown: PartialField[] = salvaged ? [] : [...(typeof doc.id !== 'string' ? ['id' as const] : []), ...(typeof doc.title !== 'string' ? ['title' as const] : [])];
  const tags = strings(doc.tags) ?? [];
  const covers = strings(doc.covers) ?? [];
  return {
    ...(typeof doc.id === 'string' ? { id: doc.id } : {}),
    ...(typeof doc.title === 'string' ? { title: doc.title } : {}),
    ...(tags.length ? { tags } : {}),
    ...(covers.length ? { covers } : {}),
    ...(typeof doc.family === 'string' ? { family: doc.family } : {}),
    ...(unknown.length ? { unknown } : {}),
  };
}


const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:/;

/** The fields of a file with a syntax error, from the top-level blocks that parse on their own. */
export function salvagePartial(file: string): PartialScenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return UNREADABLE;
  }
  const lines = text.split(/\r?\n/);
  const starts = lines.flatMap((l, i) => (TOP_KEY.test(l) ? [i] : []));
  if (starts.length === 0) return UNREADABLE;
  const blocks = new Map<string, string[]>();
  starts.forEach((start, n) => {
    const key = TOP_KEY.exec(lines[start]!)![1]!;
    blocks.set(key, [...(blocks.get(key) ?? []), lines.slice(start, starts[n + 1] ?? lines.length).join('\n')]);
  });
  const found: Doc = {};
  const unknown: PartialField[] = [];
  for (const field of PARTIAL_FIELDS) {
    const texts = blocks.get(field);
    if (!texts) continue;
    const src = texts.length === 1 ? parseYaml(texts[0]!, file) : undefined;
    const value = src && src.problems.length === 0 ? (src.value as Doc | undefined)?.[field] : undefined;
    if (value === undefined) unknown.push(field);
    else found[field] = value;
  }
  const partial = partialOfValue(found, true);
  if (!blocks.has('id')) unknown.push('id');
  return { ...partial, ...(unknown.length ? { unknown: [...new Set(unknown)] } : {}) };
}
