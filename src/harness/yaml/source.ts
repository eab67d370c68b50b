/**
 * The one YAML reader of the harness (scenarios, step groups, target profiles, waivers, `init`): the text is
 * parsed once into a Document whose node ranges plus a LineCounter trace every value back to
 * file:line:column. It never throws on bad YAML: every syntax problem the `yaml` library reports is kept in
 * `problems`, each at the position where it STARTS, and each caller turns them into its own typed error.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document } from 'yaml';
import { codeKey, keptParse } from '../user-cache.js';

type YamlLibrary = typeof Yaml;
let library: YamlLibrary | undefined;

/**
 * A module of the installation that cannot be loaded (the YAML parser of a broken install): no problem of the file
 * being read. Readers let it through, and the bin names it: "cannot start: … is missing" (exit 2).
 */
export const isMissingModule = (e: unknown): boolean => ['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'].includes(String((e as NodeJS.ErrnoException | undefined)?.code));

/**
 * The `yaml` package (CommonJS), loaded on the first parse: a run's runner and workers, whose files are all kept
 * parsed (readYaml), never load it. Saves ~20 ms in each (docs/performance.md, issue 28).
 */
export function yamlLibrary(): YamlLibrary {
  if (library) return library;
  // Named `require` with the package's name as a literal: the package build bundles what is loaded so (scripts/bundle-dependencies.mjs).
  const require = createRequire(import.meta.url);
  return (library = require('yaml') as YamlLibrary);
}

export type PathSegment = string | number;

export interface Located {
  file: string;
  line: number;
  column: number;
}

export interface YamlProblem extends Located {
  /** The parser's first line (the rest is a source excerpt we print ourselves). */
  message: string;
  /** The `yaml` library's error code, e.g. BAD_INDENT, DUPLICATE_KEY. */
  code: string;
}

export interface YamlSource {
  file: string;
  /** Syntax problems, in document order; when non-empty `value` must not be trusted. */
  problems: YamlProblem[];
  /** The document as plain data (undefined for an empty file). */
  value: unknown;
  /**
   * Position of the node at `path`: `key` points at the map key, `value` (default) at the value. A path
   * that does not exist resolves to its deepest existing ancestor, so a "missing field" points at its parent.
   */
  locate(path: readonly PathSegment[], which?: 'key' | 'value'): Located;
}

/** Aliases are allowed but bounded (a "billion laughs" file must not eat the worker). */
const MAX_ALIAS_COUNT = 100;

export function parseYaml(text: string, file: string): YamlSource {
  const lines = new (yamlLibrary().LineCounter)();
  const doc = yamlLibrary().parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): Located => {
    const pos = lines.linePos(offset);
    return { file, line: pos.line, column: pos.col };
  };
  const problems: YamlProblem[] = doc.errors.map((e) => ({ ...at(startOf(doc, text, e.pos[0])), message: e.message.split('\n')[0] ?? e.message, code: e.code }));
  let value: unknown;
  if (problems.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
    } catch (e) {
      // toJS fails on alias abuse; that is a problem of the document as a whole.
      problems.push({ ...at(0), message: (e as Error).message, code: 'ALIAS_LIMIT' });
    }
  }
  return {
    file,
    problems,
    value,
    locate: (path, which = 'value') => at(findOffset(doc, path, which)),
  };
}

type KeptYaml = { value: unknown } | { problems: true };
const isKeptYaml = (kept: unknown): kept is KeptYaml => typeof kept === 'object' && kept !== null && ('value' in kept || 'problems' in kept);

/**
 * Reads and parses a file; only I/O errors throw (callers map them to their own "not found" code), and a YAML parser
 * missing from a broken install (isMissingModule: callers let it through). With `kept`
 * (the target profile, which every process of a run reads) the value of a clean file is kept between a run's
 * processes (user-cache.ts, keyed by the text): its positions, wanted only to report a problem found later, are
 * parsed when first asked for. Scenario files are not: the whole catalogue is kept (scenario/suite-cache.ts).
 */
export function readYaml(file: string, kept = false): YamlSource {
  const text = readFileSync(file, 'utf8');
  if (!kept) return parseYaml(text, file);
  // The first process of a run computes the code key here rather than in the profile's schema check just after
  // (target/validate.ts), so that its own read is kept too: a run's CLI then loads no YAML parser either.
  codeKey();
  let parsed: YamlSource | undefined;
  const entry = keptParse('yaml', text, (): KeptYaml => {
    parsed = parseYaml(text, file);
    return parsed.problems.length ? { problems: true } : { value: parsed.value };
  }, isKeptYaml);
  if (parsed) return parsed;
  if (!('value' in entry)) return parseYaml(text, file);
  let full: YamlSource | undefined;
  return { file, problems: [], value: entry.value, locate: (path, which) => (full ??= parseYaml(text, file)).locate(path, which) };
}

/** The message every caller reports a syntax problem with (its position travels separately). */
export function describeYamlProblem(p: YamlProblem): string {
  return `YAML syntax error: ${p.message} [${p.code}]`;
}

/**
 * The parser reports an unterminated construct (a quote or flow collection never closed) where it ran out:
 * the end of the file. The user needs the place where it was opened: the start of the innermost quoted
 * scalar or flow collection still open at that point.
 */
function startOf(doc: Document, text: string, offset: number): number {
  if (offset < text.trimEnd().length) return offset;
  let best: number | undefined;
  const { isMap, isScalar, isSeq, visit } = yamlLibrary();
  visit(doc, {
    Node(_, node) {
      const range = node.range;
      const opens = isScalar(node) ? node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' : (isMap(node) || isSeq(node)) && node.flow === true;
      if (opens && range && range[0] < offset && range[2] >= offset && (best === undefined || range[0] > best)) best = range[0];
    },
  });
  return best ?? offset;
}

function findOffset(doc: Document, path: readonly PathSegment[], which: 'key' | 'value'): number {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const [i, seg] of path.entries()) {
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) return offset;
      if (last && which === 'key') return rangeStart(pair.key) ?? offset;
      // A key without a value (`field:`) has an empty value node after the colon; its key is the place to show.
      const range = (pair.value as { range?: [number, number, number] } | null)?.range;
      offset = (range && range[1] > range[0] ? range[0] : rangeStart(pair.key)) ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)];
      const start = rangeStart(item);
      if (start === undefined) return offset;
      offset = start;
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** JSON pointer ("/credentials/primary/client_id") -> segments, unescaping ~1 and ~0. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Segments -> dotted field name as users write it: credentials.primary.client_id, entities.allowed[1]. */
export function fieldName(segments: readonly PathSegment[]): string {
  return segments.reduce<string>((acc, s) => (/^\d+$/.test(String(s)) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : String(s)), '');
}
