import { DifferenceContext, newPairMemo } from "../difference-context.ts";
import { COMPATIBLE } from "./differences.ts";

/** The JSON Schema comparison's context. */
export class DiffContext extends DifferenceContext {
  static root(): DiffContext {
    return new DiffContext(COMPATIBLE, newPairMemo());
  }
}
