/**
 * Canonical JSON: object keys sorted (code-point order), no undefined members, arrays in order. The
 * certificate is signed over the compact form and written in the indented form, so that `verify` can
 * demand the file bytes be exactly the canonical rendering: any changed byte, even whitespace, fails.
 */
export function canonicalJson(value: unknown, indent = 0): string {
  return JSON.stringify(sortKeys(value), null, indent) + (indent > 0 ? '\n' : '');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
