/**
 * Boundary cases of the amount limits the clauses state (the coverage phase of Schemathesis is the anchor: every
 * constraint at, just inside and just outside its bound), in decimal.js only, never floats. The limits:
 * ERR-AMOUNT-MIN (amount < indication minimum x 1,000,000 -> 400 "Amount is below the indication minimum.", equal
 * accepted) and ERR-AMOUNT-MAX (amount > maximum x 1,000,000 -> 200 flagged for manual review or 400, by
 * enforceMaximum, consistently per indication). Each bound is probed at every scale the wire allows: whole units,
 * cents and sub-cent (JSON numbers carry any decimal; the spec fixes no precision of `amount`).
 */
import { Decimal } from 'decimal.js';

export type LimitClause = 'ERR-AMOUNT-MIN' | 'ERR-AMOUNT-MAX';

/** One step away from a bound: whole units, cents, sub-cent. */
export const SCALES = [
  { name: 'whole unit', step: '1' },
  { name: 'cent', step: '0.01' },
  { name: 'sub-cent', step: '0.001' },
] as const;
export type ScaleName = typeof SCALES[number]['name'];

export type Position = 'outside' | 'at' | 'inside';

/** What the clause requires of the answer. */
export type Expectation =
  /** 400 "Amount is below the indication minimum." */
  | 'below-minimum'
  /** 200: within both limits (or equal to one). */
  | 'accepted'
  /** Above the maximum: 400 when enforced, 200 when not, one of the two (the same for every such amount) when the profile does not say. */
  | 'above-maximum'
  /** A negative amount (the minimum negated): refused, never read as its magnitude (400, or 422: the sign refused as such). */
  | 'negative';

export interface BoundaryCase {
  clause: LimitClause;
  bound: 'minimum' | 'maximum';
  position: Position;
  /** 'sign': the bound negated (a sign dropped anywhere makes it the bound itself). */
  scale: ScaleName | 'exact' | 'sign';
  /** The amount in absolute currency units, exactly. */
  amount: Decimal;
  expect: Expectation;
}

export interface AmountLimits {
  /** minimum x 1,000,000 */
  minimum: Decimal;
  /** maximum x 1,000,000, when the indication states one. */
  maximum?: Decimal | undefined;
}

/** The indication's limit (in millions: a JSON number or a decimal string) in absolute units, exactly. */
export function millions(value: number | string): Decimal {
  return new Decimal(typeof value === 'number' ? String(value) : value).times(1_000_000);
}

/**
 * Every case: each bound exactly, and one step outside and inside it at each scale. An inside value that would
 * cross the other bound, and any amount not above zero, is left out (it would judge the other clause); one negative
 * amount, the minimum negated, checks the sign is kept.
 */
export function amountBoundaries(l: AmountLimits): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const within = (a: Decimal): boolean => a.greaterThan(0) && a.greaterThanOrEqualTo(l.minimum) && (l.maximum === undefined || a.lessThanOrEqualTo(l.maximum));
  const add = (c: BoundaryCase): void => {
    if (c.amount.greaterThan(0) && !out.some((o) => o.amount.equals(c.amount))) out.push(c);
  };
  add({ clause: 'ERR-AMOUNT-MIN', bound: 'minimum', position: 'at', scale: 'exact', amount: l.minimum, expect: 'accepted' });
  for (const s of SCALES) {
    const step = new Decimal(s.step);
    add({ clause: 'ERR-AMOUNT-MIN', bound: 'minimum', position: 'outside', scale: s.name, amount: l.minimum.minus(step), expect: 'below-minimum' });
    const inside = l.minimum.plus(step);
    if (within(inside)) add({ clause: 'ERR-AMOUNT-MIN', bound: 'minimum', position: 'inside', scale: s.name, amount: inside, expect: 'accepted' });
  }
  // The sign: -(minimum x 1,000,000) is far below the minimum; read without its sign it is exactly the minimum (accepted).
  if (l.minimum.greaterThan(0)) out.push({ clause: 'ERR-AMOUNT-MIN', bound: 'minimum', position: 'outside', scale: 'sign', amount: l.minimum.negated(), expect: 'negative' });
  if (l.maximum === undefined) return out;
  add({ clause: 'ERR-AMOUNT-MAX', bound: 'maximum', position: 'at', scale: 'exact', amount: l.maximum, expect: 'accepted' });
  for (const s of SCALES) {
    const step = new Decimal(s.step);
    add({ clause: 'ERR-AMOUNT-MAX', bound: 'maximum', position: 'outside', scale: s.name, amount: l.maximum.plus(step), expect: 'above-maximum' });
    const inside = l.maximum.minus(step);
    if (within(inside)) add({ clause: 'ERR-AMOUNT-MAX', bound: 'maximum', position: 'inside', scale: s.name, amount: inside, expect: 'accepted' });
  }
  return out;
}

/** The amount as a JSON number literal, digit for digit (never through a float). */
export function jsonNumber(amount: Decimal): string {
  return amount.toFixed();
}

export const describeCase = (c: BoundaryCase): string => c.scale === 'sign'
  ? `${c.bound} x 1,000,000 negated (${jsonNumber(c.amount)})`
  : `${c.bound} x 1,000,000 ${c.position === 'at' ? 'exactly' : `${c.position === 'outside' ? (c.bound === 'minimum' ? '-' : '+') : c.bound === 'minimum' ? '+' : '-'} one ${c.scale} step`} (${jsonNumber(c.amount)})`;
