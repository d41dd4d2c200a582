import type { Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";

/** After CHILD: REGISTRY "<path>", the child's namespace (absolute). */
function childPath(tokens: TokenStream): string {
  tokens.expectKeyword("CHILD");
  tokens.expectKeyword("REGISTRY");
  return tokens.expectName("child registry namespace").value;
}

/** SUSPEND CHILD REGISTRY "<path>" or RESUME CHILD REGISTRY "<path>", after SUSPEND or RESUME. */
export function parseSuspendOrResume(
  tokens: TokenStream,
  start: Token,
  verb: "SUSPEND" | "RESUME",
): Statement {
  const path = childPath(tokens);
  const kind = verb === "SUSPEND" ? "suspendChildRegistry" : "resumeChildRegistry";
  return { kind, path, span: tokens.spanFrom(start) };
}

/** DROP CHILD REGISTRY "<path>", after DROP: the child's registration is forgotten. */
export function parseDropChild(tokens: TokenStream, start: Token): Statement {
  return { kind: "dropChildRegistry", path: childPath(tokens), span: tokens.spanFrom(start) };
}
