import type { Span, Statement } from "../ast.ts";
import type { TokenStream } from "../token-stream.ts";
import type { Token } from "../tokens.ts";

/** The verbs that change how a stream source or sink runs, rather than what it is. */
export type ControlVerb = "PAUSE" | "RESUME" | "STOP" | "RESTART";

const SOURCE_KINDS = {
  PAUSE: "pauseStreamSource",
  RESUME: "resumeStreamSource",
  STOP: "stopStreamSource",
} as const;
const SINK_KINDS = { PAUSE: "pauseStreamSink", RESUME: "resumeStreamSink", STOP: "stopStreamSink" } as const;

/**
 * The rest of `PAUSE | RESUME | STOP STREAM SOURCE|SINK "x"` and `RESTART STREAM SOURCE|SINK "x"
 * [ONLY FAILED]`, after the verb. Pause, resume and stop set the run state the registry keeps;
 * restart acts once (ONLY FAILED: just the failed connector and tasks, as Connect's onlyFailed).
 */
export function parseConnectorControl(tokens: TokenStream, start: Token, verb: ControlVerb): Statement {
  tokens.expectKeyword("STREAM");
  const role = tokens.expectKeyword("SOURCE", "SINK").text.toUpperCase() === "SOURCE" ? "source" : "sink";
  const name = tokens.expectName(`stream ${role} name`).value;
  if (verb === "RESTART") {
    const onlyFailed = tokens.acceptKeyword("ONLY");
    if (onlyFailed) tokens.expectKeyword("FAILED");
    return restart(role, name, onlyFailed, tokens.spanFrom(start));
  }
  const span = tokens.spanFrom(start);
  return role === "source"
    ? { kind: SOURCE_KINDS[verb], source: name, span }
    : { kind: SINK_KINDS[verb], sink: name, span };
}

function restart(role: "source" | "sink", name: string, onlyFailed: boolean, span: Span): Statement {
  return role === "source"
    ? { kind: "restartStreamSource", source: name, onlyFailed, span }
    : { kind: "restartStreamSink", sink: name, onlyFailed, span };
}
