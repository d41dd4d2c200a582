import { DifferenceContext } from "../difference-context.ts";
import { COMPATIBLE, type JsonDifference } from "./differences.ts";
import type { JsonNode } from "./model.ts";

interface Shared {
  /** Differences of a compared pair, with paths relative to the pair. */
  readonly memo: Map<JsonNode, Map<JsonNode, readonly JsonDifference[]>>;
  /** Pairs being compared: one met again is a recursive cycle, taken as compatible. */
  readonly inProgress: Map<JsonNode, Set<JsonNode>>;
}

/** The JSON Schema comparison's context: pairs are compared once per check (schemas may recurse). */
export class DiffContext extends DifferenceContext {
  private constructor(
    private readonly shared: Shared,
    path: string[],
  ) {
    super(COMPATIBLE, path);
  }

  static root(): DiffContext {
    return new DiffContext({ memo: new Map(), inProgress: new Map() }, []);
  }

  sub(): DiffContext {
    return new DiffContext(this.shared, [...this.path]);
  }

  /** Compares a pair once per check; its differences are rebased onto the current path. */
  memoized(original: JsonNode, update: JsonNode, compare: (ctx: DiffContext) => void): void {
    const { memo, inProgress } = this.shared;
    let known = memo.get(original)?.get(update);
    if (!known) {
      const running = inProgress.get(original) ?? new Set<JsonNode>();
      if (running.has(update)) return;
      inProgress.set(original, running.add(update));
      const ctx = new DiffContext(this.shared, []);
      try {
        compare(ctx);
      } finally {
        running.delete(update);
      }
      known = ctx.differences;
      let byUpdate = memo.get(original);
      if (!byUpdate) memo.set(original, (byUpdate = new Map()));
      byUpdate.set(update, known);
    }
    const prefix = this.prefix();
    for (const difference of known) {
      const path = [prefix, difference.path.slice(2)].filter((part) => part !== "").join("/");
      this.differences.push({ type: difference.type, path: `#/${path}` });
    }
  }
}
