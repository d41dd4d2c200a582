import {
  checkNamespacePath,
  ErrorCode,
  namespacePath,
  RegistryError,
  userError,
  isUuid,
} from "@stream-registry/core";
import { ChildCalls, type RegistrationPurpose, type RegistryInfo } from "@stream-registry/federation";
import {
  findChildKeys,
  findChildRegistry,
  isChildSuspended,
  listChildRoutes,
  listChildRegistries,
  registerChildRegistry,
  unregisterChildRegistry,
  writeTransaction,
  type ChildRegistration,
  type ChildRegistry,
  type RegistrationAuth,
  type ChildRoute,
  type PublicJwk,
} from "@stream-registry/store";
import { publicKeysOf } from "../auth/public-keys.ts";
import type { RegistryIdentity } from "../identity.ts";
import { ChildRoutes } from "./child-routes.ts";
import { checkChildAnswers } from "./child-identity-check.ts";
import {
  checkRegistrationFields,
  EnrollmentToken,
  refuseCycle,
  refuseSchemaGaps,
  suspendedRefusal,
} from "./child-registration-checks.ts";
import { suspensionRefusal } from "./child-suspension.ts";
import { checkRegistrationProof, proofRefusal } from "./registration-proof-check.ts";
import { ConnectGuard } from "./connect-guard.ts";
import type { Actor, ServiceDeps } from "./deps.ts";
import { throwIfAny, UserErrors } from "./user-errors.ts";

/** What this registry says of itself to the registries it talks to. */
export interface SelfDescription {
  /** Its subgraph SDL (schema.graphql). */
  sdl: string;
  version: string;
  /** The URL its parent calls: REGISTRY_PUBLIC_URL, else where it listens. */
  url(): string;
  /** Its public signing keys, the signing one first (auth/registry-keys.ts). */
  keys(): PublicJwk[];
  /** A registration proof for the parent `parent` (RegistryKeys.proveRegistration). */
  prove(parent: string, purpose: RegistrationPurpose, digest: string): Promise<string>;
}

/**
 * The parent side of the hierarchy: the registries that registered with this one. A child
 * registers with this registry's enrollment token (REGISTRY_ENROLLMENT_TOKEN); without one this
 * registry accepts no children.
 */
export class ChildRegistryService {
  private readonly token: EnrollmentToken;
  private readonly routeCache = new ChildRoutes(() => listChildRoutes(this.deps.db.prisma));
  /** Why the child at a URL is not to be called (an admin here suspended it), or undefined. */
  readonly refusal = suspensionRefusal(
    () => this.routeCache.all(),
    (name) => this.pathOf(name),
  );
  /** Every call to a child goes through here: one circuit breaker per child; a suspended one is not called. */
  readonly calls = new ChildCalls(this.refusal);

  constructor(
    private readonly deps: Pick<ServiceDeps, "db">,
    private readonly identity: RegistryIdentity,
    private readonly self: SelfDescription,
    enrollmentToken: string | undefined,
    /** Where a caller may make the registry connect (REGISTRY_CONNECT_ALLOW): a child's URL is called. */
    private readonly connect: ConnectGuard = ConnectGuard.UNRESTRICTED,
  ) {
    this.token = new EnrollmentToken(enrollmentToken);
  }

  /** Who this registry is, as its children and its parent see it. */
  info(): RegistryInfo {
    return {
      id: this.identity.registryId,
      namespace: this.identity.path,
      version: this.self.version,
      ancestors: [...this.identity.ancestors],
      keys: this.self.keys().map((key) => ({ ...key })),
    };
  }

  /** The public keys the child `registryId` registered with (empty if it is not registered). */
  async keysOf(registryId: string): Promise<PublicJwk[]> {
    return (isUuid(registryId) ? await findChildKeys(this.deps.db.prisma, registryId) : null) ?? [];
  }

  list(): Promise<ChildRegistry[]> {
    return listChildRegistries(this.deps.db.prisma);
  }

  /** Where each child is reached, by name. */
  routes(): Promise<ChildRoute[]> {
    return this.routeCache.all();
  }

  /** A child was suspended, resumed or removed here: routes are read again at once. */
  forgetRoutes(): void {
    this.routeCache.forget();
  }

  find(registryId: string): Promise<ChildRegistry | null> {
    return isUuid(registryId) ? findChildRegistry(this.deps.db.prisma, registryId) : Promise.resolve(null);
  }

  /**
   * The child that owns `namespace`, or null when this registry does (none given, or its own). A
   * namespace that is not a path, or outside this registry's subtree, or below it where no child
   * registered, is refused naming `field`.
   */
  async ownerOf(
    namespace: string | null | undefined,
    field: string[],
  ): Promise<(ChildRoute & { path: string }) | null> {
    const own = this.identity.path;
    if (namespace === null || namespace === undefined || namespace === own) return null;
    const invalid = checkNamespacePath(namespace, field);
    if (invalid) throw new RegistryError(invalid.code, invalid.message, invalid.field);
    const name = this.childNameFor(namespace);
    if (name === null) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `namespace ${namespace} is not in this registry's subtree (${own}): send it to a registry above ${own}`,
        field,
      );
    }
    const child = await this.routeCache.find(name);
    if (!child) {
      const level = this.pathOf(name);
      const missing = level === namespace ? level : `${level}, so none owns ${namespace}`;
      throw new RegistryError(
        ErrorCode.NOT_FOUND,
        `no child registry owns namespace ${missing}; ${await this.namespacesBelow()}`,
        field,
      );
    }
    return { ...child, path: this.pathOf(name) };
  }

  /** What exists below this registry, for a message about a namespace that does not. */
  private async namespacesBelow(): Promise<string> {
    const own = this.identity.path;
    const children = (await this.routeCache.all()).map((route) => this.pathOf(route.name));
    return children.length === 0
      ? `${own} has no child registries`
      : `the child registries of ${own} own ${children.join(", ")}`;
  }

  /**
   * The name of the child whose subtree `namespace` is in, whether or not such a child registered;
   * null for this registry's own namespace, one outside its subtree, or none.
   */
  childNameFor(namespace: string | undefined): string | null {
    const own = this.identity.path;
    const prefix = own === "/" ? "/" : `${own}/`;
    if (!namespace?.startsWith(prefix) || namespace === own) return null;
    return namespace.slice(prefix.length).split("/")[0] || null;
  }

  /** The namespace path of the child named `name`. */
  pathOf(name: string): string {
    return namespacePath(name, this.identity.path);
  }

  /**
   * Registers a child, or registers it again. Refused: a new registry id without the enrollment
   * token, a registered one without a proof signed with a key it registered with (`proof`), for a
   * registry that is this one or one of its ancestors (a cycle), for a schema this registry cannot
   * serve, and for a name another child has.
   */
  async register(
    input: Omit<ChildRegistration, "keys"> & {
      token?: string | null;
      proof?: string | null;
      keys?: unknown[] | null;
    },
    { actor }: Actor,
  ): Promise<{ child: ChildRegistry; parent: RegistryInfo }> {
    const pinned = await this.pinnedKeys(input.registryId);
    if (!pinned) this.token.check(input.token);
    throwIfAny(await checkRegistrationFields(input, this.connect));
    const self = this.info();
    refuseCycle(input.registryId, self);
    refuseSchemaGaps(this.self.sdl, input.sdl, self);
    const { token: _token, proof, keys, ...rest } = input;
    const registration: ChildRegistration = {
      ...rest,
      keys: publicKeysOf((keys ?? []) as Record<string, unknown>[]),
    };
    // A registered id proves it holds a key it registered with: nothing stored anywhere will do.
    // Before anything is said of it (suspended or not) to a caller who may not be it.
    const auth: RegistrationAuth = pinned
      ? await checkRegistrationProof(proof, pinned, {
          child: input.registryId,
          parent: this.identity.registryId,
          purpose: "register",
          fields: registration,
        })
      : { enrolled: true };
    if (await isChildSuspended(this.deps.db.prisma, input.registryId)) {
      throw suspendedRefusal(input.registryId, self);
    }
    // Last, as it calls out: the URL must answer as the registering registry, with these keys.
    const unlike = await checkChildAnswers(registration);
    if (unlike) throw new UserErrors([unlike]);
    const path = this.pathOf(input.name);
    const outcome = await writeTransaction(this.deps.db.prisma, (tx) =>
      registerChildRegistry(tx, registration, auth, path, actor),
    );
    this.routeCache.forget();
    if ("refused" in outcome) {
      throw new UserErrors([
        outcome.refused === "taken"
          ? userError(
              ErrorCode.ALREADY_EXISTS,
              ["input", "name"],
              `namespace ${path} is owned by another child registry already`,
            )
          : proofRefusal(outcome.refused, input.registryId),
      ]);
    }
    return { child: outcome.child, parent: self };
  }

  /**
   * Forgets a child that proves itself (`proof`, signed with a key it registered with); null if it
   * was not registered (unregistering is idempotent).
   */
  async unregister(
    input: { registryId: string; proof: string },
    { actor }: Actor,
  ): Promise<ChildRegistry | null> {
    const pinned = await this.pinnedKeys(input.registryId);
    if (!pinned) return null;
    const auth = await checkRegistrationProof(input.proof, pinned, {
      child: input.registryId,
      parent: this.identity.registryId,
      purpose: "unregister",
      fields: input,
    });
    const outcome = await writeTransaction(this.deps.db.prisma, (tx) =>
      unregisterChildRegistry(tx, input.registryId, auth.proof, (name) => this.pathOf(name), actor),
    );
    this.routeCache.forget();
    if (typeof outcome === "string") throw new UserErrors([proofRefusal(outcome, input.registryId)]);
    return outcome;
  }

  /** The keys the child `registryId` registered with; null if it is not registered here. */
  private async pinnedKeys(registryId: string): Promise<PublicJwk[] | null> {
    return isUuid(registryId) ? findChildKeys(this.deps.db.prisma, registryId) : null;
  }
}
