/** A difference a format's checker finds, at a path (`#/properties/a`, `#/Order/3`). */
export interface Difference {
  readonly type: string;
  readonly path: string;
}

/** What the contexts of one comparison share: compared pairs and the pairs being compared. */
export interface PairMemo {
  /** Differences of a compared pair, with paths relative to the pair. */
  readonly done: Map<object, Map<object, readonly Difference[]>>;
  /** Pairs being compared: one met again is a recursive cycle, taken as compatible. */
  readonly running: Map<object, Set<object>>;
  /** Pairs whose differences were given in full once: later they are summed up. */
  readonly reported: Map<object, Set<object>>;
}

export function newPairMemo(): PairMemo {
  return { done: new Map(), running: new Map(), reported: new Map() };
}

/**
 * A pair reached again by another path (a type used in many places) stands for its differences
 * by their kinds alone, at the place it is used: verdicts stay exact, and what a schema reaching one
 * pair by exponentially many paths reports stays small.
 */
export function summary(differences: readonly Difference[]): Difference[] {
  return [...new Set(differences.map((difference) => difference.type))].map((type) => ({ type, path: "#/" }));
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
    protected readonly memo: PairMemo,
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

  /**
   * Compares a pair once per check (schemas may recurse, and reach a pair by many paths): `compare`
   * runs on a context rooted at the pair, and its differences are rebased onto the current path.
   */
  memoized<T extends object>(
    original: T,
    update: T,
    compare: (ctx: this) => void,
    sumUpRepeats = true,
  ): void {
    const { done, running } = this.memo;
    let known = done.get(original)?.get(update);
    if (!known) {
      const inProgress = running.get(original) ?? new Set<object>();
      if (inProgress.has(update)) return;
      running.set(original, inProgress.add(update));
      const ctx = this.rootedAt([]);
      try {
        compare(ctx);
      } finally {
        inProgress.delete(update);
      }
      known = ctx.differences;
      let byUpdate = done.get(original);
      if (!byUpdate) done.set(original, (byUpdate = new Map()));
      byUpdate.set(update, known);
    }
    this.rebase(!sumUpRepeats || this.firstReport(original, update) ? known : summary(known));
  }

  /** Whether this is the first time the pair's differences are given (later ones are summed up). */
  private firstReport(original: object, update: object): boolean {
    const reported = this.memo.reported.get(original) ?? new Set<object>();
    this.memo.reported.set(original, reported);
    if (reported.has(update)) return false;
    reported.add(update);
    return true;
  }

  private rebase(differences: readonly Difference[]): void {
    const prefix = this.path.join("/");
    for (const difference of differences) {
      const path = [prefix, difference.path.slice(2)].filter((part) => part !== "").join("/");
      this.differences.push({ type: difference.type, path: `#/${path}` });
    }
  }

  /** A context of the same comparison on the side, from the current place. */
  sub(): this {
    return this.rootedAt([...this.path]);
  }

  protected rootedAt(path: string[]): this {
    const Context = this.constructor as new (
      compatible: ReadonlySet<string>,
      memo: PairMemo,
      path: string[],
    ) => this;
    return new Context(this.compatible, this.memo, path);
  }
}
