/** A difference a format's checker finds, at a path (`#/properties/a`, `#/Order/3`). */
export interface Difference {
  readonly type: string;
  readonly path: string;
}

/**
 * Where a comparison of two schemas is, and what it found so far. `compatible` is the set of
 * difference types that do not break compatibility; a side context tries a comparison whose
 * outcome decides what the main one records.
 */
export class DifferenceContext {
  readonly differences: Difference[] = [];

  constructor(
    protected readonly compatible: ReadonlySet<string>,
    protected readonly path: string[] = [],
  ) {}

  isCompatible(): boolean {
    return this.differences.every((difference) => this.compatible.has(difference.type));
  }

  add(type: string, attribute?: string): void {
    const path = attribute === undefined ? this.path : [...this.path, attribute];
    this.differences.push({ type, path: `#/${path.join("/")}` });
  }

  addAll(differences: readonly Difference[]): void {
    this.differences.push(...differences);
  }

  /** Runs `body` with `segment` appended to the path (`properties`, `items/0`). */
  within(segment: string, body: () => void): void {
    this.path.push(segment);
    try {
      body();
    } finally {
      this.path.pop();
    }
  }

  /**
   * Visits every key of either side under its own path segment: what only `before` has, what only
   * `after` has, and what both have.
   */
  eachKey<K, T>(
    before: ReadonlyMap<K, T>,
    after: ReadonlyMap<K, T>,
    visit: (original: T | undefined, update: T | undefined, key: K) => void,
  ): void {
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      this.within(String(key), () => visit(before.get(key), after.get(key), key));
    }
  }

  /** The current path joined, for rebasing differences found relative to it. */
  protected prefix(): string {
    return this.path.join("/");
  }
}
