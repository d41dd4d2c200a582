import { ErrorCode, userError, type UserError } from "@stream-registry/core";
import { identifyRegistry, orRemoteError, RemoteRegistryError } from "@stream-registry/federation";
import type { PublicJwk } from "@stream-registry/store";

/** How long a registering child's URL has to answer who it is. */
const IDENTIFY_TIMEOUT_MS = 5_000;

/**
 * Whether the registry at a registering child's URL is that child: it answers `registry { id
 * keys }` with the registering id, publishing every key the registration presents. Otherwise an
 * INVALID_INPUT on input.url saying what answered there; undefined when it is the child. Called
 * after the allow-list let the URL through (REGISTRY_CONNECT_ALLOW); redirects are not followed.
 */
export async function checkChildAnswers(
  child: { url: string; registryId: string; keys: readonly PublicJwk[] },
  signal?: AbortSignal,
): Promise<UserError | undefined> {
  const refuse = (why: string) =>
    userError(
      ErrorCode.INVALID_INPUT,
      ["input", "url"],
      `url must answer as the registering registry ${child.registryId}: ${why}`,
    );
  const answer = await orRemoteError(identifyRegistry(child.url, { timeoutMs: IDENTIFY_TIMEOUT_MS, signal }));
  if (answer instanceof RemoteRegistryError) return refuse(answer.message);
  if (answer?.id !== child.registryId)
    return refuse(`${child.url} answers as registry ${String(answer?.id).slice(0, 64)}`);
  const published = new Set(
    (Array.isArray(answer.keys) ? answer.keys : []).map((key) => `${String(key?.kid)} ${String(key?.x)}`),
  );
  const missing = child.keys.filter((key) => !published.has(`${key.kid} ${key.x}`));
  if (missing.length > 0)
    return refuse(
      `${child.url} does not publish the key${missing.length > 1 ? "s" : ""} ${missing.map((key) => key.kid).join(", ")} the registration presents`,
    );
  return undefined;
}
