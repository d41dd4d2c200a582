import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";
import { parseDropChild } from "./child-registry.ts";

/**
 * DROP PARENT REGISTRY, DROP CHILD REGISTRY "<path>". DROP is for links a registry holds rather
 * than objects it owns: those go with DELETE (DELETE STREAM, DELETE BINDING).
 */
export function parseDrop(tokens: TokenStream, start: Token): Statement {
  if (tokens.isKeyword("CHILD")) return parseDropChild(tokens, start);
  tokens.expectKeyword("PARENT");
  tokens.expectKeyword("REGISTRY");
  return { kind: "dropParentRegistry", span: tokens.spanFrom(start) };
}
