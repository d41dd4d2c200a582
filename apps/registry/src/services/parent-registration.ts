import { ErrorCode, userError, type UserError } from "@stream-registry/core";
import {
  registerWithParent,
  RemoteRegistryError,
  type RegistryInfo,
  type RemoteUserError,
} from "@stream-registry/federation";
import type { ParentView } from "@stream-registry/store";
import type { RegistryIdentity } from "../identity.ts";
import type { SelfDescription } from "./child-registry-service.ts";

/** How long a call to the parent may take. */
export const PARENT_TIMEOUT_MS = 10_000;

export type ParentAnswer =
  | { accepted: true; parent: ParentView }
  | { accepted: false; refusal: string; userErrors: RemoteUserError[] };

/**
 * Registers this registry under `name` with the parent at `url`: what the parent answered, or a
 * RemoteRegistryError when it did not answer as a registry.
 */
export async function registerWith(
  url: string,
  token: string,
  name: string,
  identity: RegistryIdentity,
  self: SelfDescription,
  signal?: AbortSignal,
): Promise<ParentAnswer> {
  const outcome = await registerWithParent(
    url,
    { registryId: identity.registryId, name, url: self.url(), sdl: self.sdl, version: self.version, token },
    { timeoutMs: PARENT_TIMEOUT_MS, signal },
  );
  if (outcome.accepted) return { accepted: true, parent: parentView(outcome.parent) };
  const refusal = `the parent registry at ${url} refused the registration: ${outcome.userErrors.map((e) => `${e.code}: ${e.message}`).join("; ")}`;
  return { accepted: false, refusal, userErrors: outcome.userErrors };
}

export function parentView(info: RegistryInfo): ParentView {
  return { registryId: info.id, path: info.namespace, ancestors: info.ancestors };
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
    return userError(code, field, `the parent registry at ${url} refused: ${e.message}`);
  });
}
