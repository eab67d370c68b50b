/**
 * The open sentences of the spec (issue 25): every table row or prose sentence saying "not shown", "or",
 * "depending on", "optional" or giving a sample value. docs/spec-silences.md has a row for each
 * (test/docs/spec-silences.test.ts).
 */
export const SILENCE = /not shown|\bor\b|depending on|optional|sample value/i;

export function silentUnits(spec: string): string[] {
  const out: string[] = [];
  for (const raw of spec.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || /^\|[-| ]+\|$/.test(line)) continue;
    // A table row is one unit; prose is split into sentences (list markers dropped).
    const units = line.startsWith('|') ? [line] : line.replace(/^(- |\d+\. )/, '').split(/(?<=\.)\s+(?=[A-Z])/);
    for (const u of units) if (SILENCE.test(u)) out.push(u.trim());
  }
  return out;
}
