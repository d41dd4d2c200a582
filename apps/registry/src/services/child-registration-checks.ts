import { createHash, timingSafeEqual } from "node:crypto";
import { checkName, ErrorCode, isUuid, userError, type UserError } from "@stream-registry/core";
import { schemaGaps, type RegistryInfo } from "@stream-registry/federation";
import type { ChildRegistration } from "@stream-registry/store";
import { checkPublicKeys } from "../auth/public-keys.ts";
import { checkRegistryUrl } from "./registry-url.ts";
import { urlTarget, type ConnectGuard } from "./connect-guard.ts";
import { pushIf, UserErrors } from "./user-errors.ts";

// What a child's registration is checked for before anything is written (ChildRegistryService
// keeps the order and the writes): its fields, where it may be called, that it is neither this
// registry nor an ancestor, that this registry can serve its schema, and the enrollment token.

const MAX_SDL_LENGTH = 1_000_000;
const MAX_VERSION_LENGTH = 100;

/** The registration's own fields, and whether this registry may call its URL: every error at once. */
export async function checkRegistrationFields(
  input: Omit<ChildRegistration, "keys"> & { keys?: unknown[] | null },
  connect: ConnectGuard,
): Promise<UserError[]> {
  const errors: UserError[] = [];
  if (!isUuid(input.registryId)) {
    errors.push(userError(ErrorCode.INVALID_INPUT, ["input", "registryId"], "registryId must be a UUID"));
  }
  pushIf(errors, checkName(input.name, ["input", "name"], "namespace name"));
  const badUrl = checkRegistryUrl(input.url, ["input", "url"]);
  pushIf(errors, badUrl);
  // This registry will call the child there (forwarded requests, its index, probes).
  if (!badUrl) {
    errors.push(...(await connect.refusals([urlTarget(input.url, ["input", "url"], "child registry URL")])));
  }
  if (input.version.length === 0 || input.version.length > MAX_VERSION_LENGTH) {
    errors.push(
      userError(
        ErrorCode.INVALID_INPUT,
        ["input", "version"],
        `version must have 1 to ${MAX_VERSION_LENGTH} characters`,
      ),
    );
  }
  if (input.sdl.length > MAX_SDL_LENGTH) {
    errors.push(
      userError(
        ErrorCode.INVALID_INPUT,
        ["input", "sdl"],
        `sdl must have at most ${MAX_SDL_LENGTH} characters`,
      ),
    );
  }
  const badKeys =
    checkPublicKeys(input.keys ?? []) ??
    (input.keys?.length
      ? undefined
      : "keys must hold the registry's Ed25519 public keys (JWKs): none were given");
  if (badKeys) errors.push(userError(ErrorCode.INVALID_INPUT, ["input", "keys"], badKeys));
  return errors;
}

/** A registry cannot register below itself: not this registry, nor one of its ancestors (a cycle). */
export function refuseCycle(registryId: string, self: RegistryInfo): void {
  if (registryId !== self.id && !self.ancestors.includes(registryId)) return;
  throw new UserErrors([
    userError(
      ErrorCode.INVALID_INPUT,
      ["input", "registryId"],
      registryId === self.id
        ? `registry ${registryId} is this registry (${self.namespace}): a registry cannot be its own parent`
        : `registry ${registryId} is an ancestor of this registry (${self.namespace}): registering it here would make a cycle`,
    ),
  ]);
}

/** This registry must serve every type and field of the child's schema (`sdl`). */
export function refuseSchemaGaps(ownSdl: string, childSdl: string, self: RegistryInfo): void {
  const gaps = schemaGaps(ownSdl, childSdl);
  if (gaps.length === 0) return;
  throw new UserErrors([
    userError(
      ErrorCode.INCOMPATIBLE,
      ["input", "sdl"],
      `this registry (version ${self.version}) cannot serve the child's schema: ${gaps.join("; ")}`,
    ),
  ]);
}

/** A child suspended here keeps its registration as it was until an admin resumes it. */
export function suspendedRefusal(registryId: string, self: RegistryInfo): UserErrors {
  return new UserErrors([
    userError(
      ErrorCode.FORBIDDEN,
      ["input", "registryId"],
      `registry ${registryId} is a child registry suspended here: an admin of ${self.namespace} suspended it, and its registration stays as it was until they resume it`,
    ),
  ]);
}

/** REGISTRY_ENROLLMENT_TOKEN, kept as its digest: what a new child's first registration shows. */
export class EnrollmentToken {
  private readonly digest: Buffer | undefined;

  constructor(token: string | undefined) {
    this.digest = token ? sha256(token) : undefined;
  }

  /** Throws unless `token` is this registry's enrollment token (none set: no child is accepted). */
  check(token: string | null | undefined): void {
    if (!this.digest) {
      throw new UserErrors([
        userError(
          ErrorCode.UNSUPPORTED,
          ["input", "token"],
          "this registry accepts no child registries: start it with REGISTRY_ENROLLMENT_TOKEN set to a secret, and give that secret to its children (DECLARE PARENT REGISTRY ... WITH TOKEN)",
        ),
      ]);
    }
    // Digests of equal length, compared in constant time: the answer's timing tells nothing.
    if (!timingSafeEqual(sha256(token ?? ""), this.digest)) {
      throw new UserErrors([
        userError(
          ErrorCode.UNAUTHENTICATED,
          ["input", "token"],
          token
            ? "the enrollment token is not this registry's"
            : "this registry id is not registered here: its first registration takes this registry's enrollment token (DECLARE PARENT REGISTRY ... WITH TOKEN)",
        ),
      ]);
    }
  }
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
