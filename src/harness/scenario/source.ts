/**
 * YAML parsing that keeps positions: every value can be traced back to file:line:column through the
 * Document's node ranges and a LineCounter, so load errors point at the offending node.
 */
import { readFileSync } from 'node:fs';
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { FtfError } from '../../shared/errors.js';
import type { SourceLocation } from './types.js';

export type PathSegment = string | number;

export interface YamlSource {
  file: string;
  value: unknown;
  /** Location of the node at `path` (or of its nearest existing ancestor); `key: true` points at the map key. */
  locate(path: readonly PathSegment[], opts?: { key?: boolean }): SourceLocation;
}

export function scenarioError(message: string, at: SourceLocation, hint?: string, cause?: unknown): FtfError {
  return new FtfError('FTF_E_SCENARIO_INVALID', message, {
    hint: hint ?? 'see docs/scenario-format.md',
    location: { file: at.file, line: at.line, column: at.column },
    cause,
  });
}

/** Parse a YAML file; syntax errors become FTF_E_SCENARIO_INVALID with the parser's position. */
export function readYamlSource(file: string, text: string = readFileSync(file, 'utf8')): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const firstError = doc.errors[0];
  if (firstError) {
    const pos = lineCounter.linePos(firstError.pos[0]);
    throw scenarioError(`YAML syntax error: ${firstError.message.split('\n')[0]}`, { file, line: pos.line, column: pos.col }, 'fix the YAML syntax (indentation, quotes, colons)');
  }
  const at = (offset: number): SourceLocation => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, column: pos.col };
  };
  return {
    file,
    value: doc.toJS({ maxAliasCount: 100 }) as unknown,
    locate(path, opts = {}) {
      return at(findOffset(doc, path, opts.key === true));
    },
  };
}

function findOffset(doc: Document, path: readonly PathSegment[], wantKey: boolean): number {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i] as PathSegment;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return offset;
      if (last && wantKey) return rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (node && typeof node === 'object' && 'items' in node && Array.isArray((node as { items: unknown[] }).items)) {
      node = (node as { items: unknown[] }).items[Number(seg)];
    } else {
      return offset;
    }
    offset = rangeStart(node) ?? offset;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}
