import { checkNamespacePath, ErrorCode, userError, type UserError, isUuid } from "@stream-registry/core";
import {
  registerWithParent,
  registrationDigest,
  RemoteRegistryError,
  type RegistryInfo,
  type RemoteUserError,
} from "@stream-registry/federation";
import type { ParentView } from "@stream-registry/store";
import { checkPublicKeys, publicKeysOf } from "../auth/public-keys.ts";
import type { RegistryIdentity } from "../identity.ts";
import type { SelfDescription } from "./child-registry-service.ts";

/** How long a call to the parent may take. */
export const PARENT_TIMEOUT_MS = 10_000;
/** Ancestors a registry accepts from its parent: a deeper tree is a loop being built. */
const MAX_DEPTH = 32;
const MAX_PATH_LENGTH = 1_024;

export type ParentAnswer =
  | { accepted: true; parent: ParentView }
  | { accepted: false; refusal: string; userErrors: RemoteUserError[] };

/**
 * Registers this registry under `name` with the parent at `url`: the first time with the parent's
 * enrollment `token`, then with a proof signed with its keys for the parent it knows
 * (`parentRegistryId`, which ignores it if it does not know this registry). What the parent
 * answered, or a RemoteRegistryError when it did not answer as a registry. An answer that would
 * make this registry its own ancestor, or that is not a registry's, is a refusal.
 */
export async function registerWith(
  link: { url: string; token?: string; parentRegistryId: string | null },
  name: string,
  identity: RegistryIdentity,
  self: SelfDescription,
  signal?: AbortSignal,
): Promise<ParentAnswer> {
  const fields = {
    registryId: identity.registryId,
    name,
    url: self.url(),
    sdl: self.sdl,
    version: self.version,
    keys: self.keys().map((key) => ({ ...key })),
  };
  const proof = link.parentRegistryId
    ? await self.prove(link.parentRegistryId, "register", registrationDigest("register", fields))
    : null;
  const outcome = await registerWithParent(
    link.url,
    { ...fields, token: link.token ?? null, proof },
    { timeoutMs: PARENT_TIMEOUT_MS, signal },
  );
  if (!outcome.accepted) {
    const reasons = outcome.userErrors.map((e) => `${e.code}: ${e.message}`).join("; ");
    return {
      accepted: false,
      refusal: `the parent registry at ${link.url} refused the registration: ${reasons}`,
      userErrors: outcome.userErrors,
    };
  }
  const wrong = checkParentView(outcome.parent, identity.registryId);
  if (wrong) {
    const message = `the parent registry at ${link.url} ${wrong}`;
    return {
      accepted: false,
      refusal: message,
      userErrors: [{ code: ErrorCode.INVALID_INPUT, field: ["input", "url"], message }],
    };
  }
  return { accepted: true, parent: parentView(outcome.parent) };
}

/**
 * What is wrong with what a parent says of itself, or undefined: its id and ancestors must be
 * registry ids, its namespace a path, and this registry (`self`) neither it nor among its
 * ancestors — two registries that declared each other parents at once would otherwise each take
 * the other's path, growing by a segment at every check.
 */
export function checkParentView(info: RegistryInfo, self: string): string | undefined {
  const ancestors: unknown = info.ancestors;
  if (!isUuid(info.id)) return `answered with registry id ${JSON.stringify(info.id)}, which is not one`;
  if (info.namespace.length > MAX_PATH_LENGTH || checkNamespacePath(info.namespace, [])) {
    return `answered with namespace ${JSON.stringify(info.namespace.slice(0, 100))}, which is not a namespace path`;
  }
  if (
    !Array.isArray(ancestors) ||
    ancestors.length > MAX_DEPTH ||
    !ancestors.every((a) => typeof a === "string" && isUuid(a))
  ) {
    return `answered with ancestors that are not a list of at most ${MAX_DEPTH} registry ids`;
  }
  if (info.id === self || info.ancestors.includes(self)) {
    return `is this registry or one below it: registering there would make a cycle`;
  }
  const badKeys = checkPublicKeys(info.keys);
  if (badKeys) return `answered with signing keys that are not usable: ${badKeys}`;
  return undefined;
}

export function parentView(info: RegistryInfo): ParentView {
  return {
    registryId: info.id,
    path: info.namespace,
    ancestors: info.ancestors,
    keys: publicKeysOf(info.keys),
  };
}

/**
 * A registration that did not go through, as this registry's own userErrors: the parent's
 * refusals with its codes (a wrong token on the token field, the rest on `field`), or what went
 * wrong reaching it, on the URL field.
 */
export function registrationErrors(
  url: string,
  answer: ParentAnswer | RemoteRegistryError,
  fields: { url: string[]; token: string[]; other: string[] },
): UserError[] {
  if (answer instanceof RemoteRegistryError) {
    const message =
      answer.failure === "unreachable" ? `the parent registry ${answer.message}` : answer.message;
    return [userError(ErrorCode.INVALID_INPUT, fields.url, message)];
  }
  if (answer.accepted) return [];
  return answer.userErrors.map((e) => {
    const code = (Object.values(ErrorCode) as string[]).includes(e.code)
      ? (e.code as ErrorCode)
      : ErrorCode.INVALID_INPUT;
    const field = e.field.at(-1) === "token" ? fields.token : fields.other;
    const message = e.message.startsWith(`the parent registry at ${url}`)
      ? e.message
      : `the parent registry at ${url} refused: ${e.message}`;
    return userError(code, field, message);
  });
}
