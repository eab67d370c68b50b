/**
 * Finds where a field of a YAML document sits (line/column), so profile errors point at the file position
 * of the field at fault instead of a bare JSON pointer.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

export interface Located {
  line: number;
  column: number;
}

export interface YamlSource {
  doc: Document.Parsed;
  lines: LineCounter;
  /** Position of the key (or, for values/items, the node) at `path`; falls back to the deepest ancestor found. */
  locate(path: readonly string[], which?: 'key' | 'value'): Located;
}

export function parseYamlSource(text: string): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): Located => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  return {
    doc,
    lines,
    locate(path, which = 'key') {
      let node: unknown = doc.contents;
      let best: Located = at(rangeStart(doc.contents) ?? 0);
      for (const [i, segment] of path.entries()) {
        const last = i === path.length - 1;
        if (isMap(node)) {
          const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === segment);
          if (!pair) return best;
          const keyStart = rangeStart(pair.key as Node | null);
          const valueStart = rangeStart(pair.value as Node | null);
          if (last && which === 'key' && keyStart !== undefined) return at(keyStart);
          best = at(valueStart ?? keyStart ?? 0);
          node = pair.value;
        } else if (isSeq(node)) {
          const item = node.items[Number(segment)] as Node | undefined;
          const start = rangeStart(item ?? null);
          if (start === undefined) return best;
          best = at(start);
          node = item;
        } else {
          return best;
        }
      }
      return best;
    },
  };
}

function rangeStart(node: Node | null | undefined): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** JSON pointer ("/credentials/primary/client_id") -> segments, unescaping ~1 and ~0. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Segments -> dotted field name as users write it: credentials.primary.client_id, entities.allowed[1]. */
export function fieldName(segments: readonly string[]): string {
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}
