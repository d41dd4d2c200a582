import type { StatementOf } from "@stream-registry/ddl";
import { execute } from "../client/execute.ts";
import { withoutSecret } from "../secrets.ts";
import { outcome, USER_ERRORS, type Outcome, type StatementContext } from "./context.ts";
import { runMutation } from "./mutation.ts";

interface ParentData {
  url: string;
  /** The parent's namespace as it last answered. */
  namespace: string | null;
  status: { phase: string; message: string | null };
}

interface ParentPayload {
  parent: ParentData | null;
  namespace: { path: string } | null;
}

const PAYLOAD = "parent { url namespace status { phase message } } namespace { path }";

export async function declareParentRegistry(
  s: StatementOf<"declareParentRegistry">,
  context: StatementContext,
): Promise<Outcome> {
  const answer = await runMutation<ParentPayload>(
    context,
    "DECLARE PARENT REGISTRY",
    "declareParentRegistry",
    { url: s.url, token: s.token },
    PAYLOAD,
  ).catch((error: unknown) => {
    // A parent (or a proxy) that quotes the request back must not get the token printed.
    throw withoutSecret(error, s.token);
  });
  const { parent, namespace } = answer.value;
  // The payload's link is ONLINE when the parent accepted; anything else is worth saying as is.
  const status = parent?.status ?? { phase: "ONLINE", message: null };
  const state = status.phase === "ONLINE" ? "registered" : describePhase(status);
  const path = namespace?.path;
  return outcome(
    {
      type: "mutation",
      message: `parent registry ${s.url}: ${state}${path ? ` (namespace ${path})` : ""}`,
      object: {
        kind: "parentRegistry",
        url: parent?.url ?? s.url,
        parentNamespace: parent?.namespace ?? null,
        phase: status.phase,
        namespace: path ?? null,
      },
    },
    answer.warnings,
  );
}

export async function dropParentRegistry(
  _s: StatementOf<"dropParentRegistry">,
  context: StatementContext,
): Promise<Outcome> {
  // No input, so not runMutation's `(input: ...)` shape.
  const answer = await execute<ParentPayload>(context, {
    statement: "DROP PARENT REGISTRY",
    root: "Mutation",
    field: "dropParentRegistry",
    query: `mutation SrctlDropParentRegistry { dropParentRegistry { ${PAYLOAD} ${USER_ERRORS} } }`,
  });
  const { parent, namespace } = answer.value;
  const path = namespace?.path ?? null;
  const owns = path ? ` (namespace ${path})` : "";
  return outcome(
    {
      type: "mutation",
      message: parent ? `parent registry ${parent.url}: dropped${owns}` : `no parent registry to drop${owns}`,
      object: {
        kind: "parentRegistry",
        url: parent?.url ?? null,
        phase: parent?.status.phase ?? null,
        namespace: path,
      },
    },
    answer.warnings,
  );
}

/** "FAILED: the parent refused the token", or just the phase when there is no message. */
export function describePhase(status: { phase: string; message: string | null }): string {
  return status.message ? `${status.phase}: ${status.message}` : status.phase;
}
