/** A growable, sorted-by-construction list of int32 sequence numbers with binary search. */
export class IntList {
  private data = new Int32Array(16);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  at(i: number): number {
    return this.data[i] ?? 0;
  }

  /** Index of the first element > v (elements are ascending). O(log n). */
  upperBound(v: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.data[mid] ?? 0) <= v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
