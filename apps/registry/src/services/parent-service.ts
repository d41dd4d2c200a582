import { ErrorCode, userError, type UserError } from "@stream-registry/core";
import { orRemoteError, RemoteRegistryError } from "@stream-registry/federation";
import {
  declareParentLink,
  dropParentLink,
  findLiveParentLink,
  writeTransaction,
  type ParentLink,
} from "@stream-registry/store";
import type { RegistryIdentity } from "../identity.ts";
import type { SelfDescription } from "./child-registry-service.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import { ConnectGuard, urlTarget } from "./connect-guard.ts";
import { registerWith, registrationErrors } from "./parent-registration.ts";
import { checkRegistryUrl } from "./registry-url.ts";
import { pushIf, throwIfAny, UserErrors } from "./user-errors.ts";

const MAX_TOKEN_LENGTH = 1_024;

/**
 * The child side of the hierarchy: this registry's parent (DECLARE PARENT REGISTRY). The parent
 * must accept the registration before a declaration answers; the link is then a resource of the
 * reconcile kernel (parent-link-handler.ts), which checks it and unregisters from a parent left.
 */
export class ParentService {
  constructor(
    private readonly deps: Pick<ServiceDeps, "db" | "wakeReconciler">,
    private readonly identity: RegistryIdentity,
    private readonly self: SelfDescription,
    /** Where a caller may make the registry connect (REGISTRY_CONNECT_ALLOW). */
    private readonly connect: ConnectGuard = ConnectGuard.UNRESTRICTED,
  ) {}

  /** The link in use; null without a parent. */
  async current(): Promise<PublicParentLink | null> {
    const link = await findLiveParentLink(this.deps.db.prisma);
    return link && publicLink(link);
  }

  async declare(
    input: { url: string; token: string },
    { actor, access }: Caller,
  ): Promise<{ link: PublicParentLink; path: string }> {
    // A registry connects somewhere new only for an admin.
    access.require("admin", "", "declaring a parent registry");
    const errors: UserError[] = [];
    const badUrl = checkRegistryUrl(input.url, ["input", "url"]);
    pushIf(errors, badUrl);
    // Before anything connects to it: the registration below calls the parent.
    if (!badUrl) {
      errors.push(
        ...(await this.connect.refusals([urlTarget(input.url, ["input", "url"], "parent registry URL")])),
      );
    }
    if (input.token.length === 0 || input.token.length > MAX_TOKEN_LENGTH) {
      errors.push(
        userError(
          ErrorCode.INVALID_INPUT,
          ["input", "token"],
          `token must have 1 to ${MAX_TOKEN_LENGTH} characters: the parent's REGISTRY_ENROLLMENT_TOKEN`,
        ),
      );
    }
    const name = this.identity.name;
    if (name === null) {
      errors.push(
        userError(
          ErrorCode.INVALID_INPUT,
          ["input", "url"],
          `this registry owns "/" and has no name to register under: name it first (DECLARE DEFAULT NAMESPACE "<name>")`,
        ),
      );
    }
    if (errors.length === 0) pushIf(errors, this.unreachableSelf(input.url));
    throwIfAny(errors);
    // Registered there already (the parent it has, again): it proves itself with its keys.
    const live = await findLiveParentLink(this.deps.db.prisma);
    const answer = await orRemoteError(
      registerWith(
        { ...input, parentRegistryId: live?.parentRegistryId ?? null },
        name!,
        this.identity,
        this.self,
      ),
    );
    if (answer instanceof RemoteRegistryError || !answer.accepted) {
      throw new UserErrors(
        registrationErrors(input.url, answer, {
          url: ["input", "url"],
          token: ["input", "token"],
          other: ["input", "url"],
        }),
      );
    }
    const { link, settings } = await writeTransaction(this.deps.db.prisma, (tx) =>
      declareParentLink(tx, { url: input.url, parent: answer.parent }, actor),
    );
    this.identity.apply(settings);
    // A parent left behind is unregistered from by the reconciler.
    this.deps.wakeReconciler();
    return { link: publicLink(link), path: this.identity.path };
  }

  /**
   * A registry that would register a loopback URL (it listens on all interfaces and has no
   * REGISTRY_PUBLIC_URL) with a parent on another host: the parent would call itself.
   */
  private unreachableSelf(parentUrl: string): UserError | undefined {
    const loopback = (url: string) => {
      const host = URL.canParse(url) ? new URL(url).hostname : "";
      return host === "localhost" || host === "[::1]" || host.startsWith("127.");
    };
    const own = this.self.url();
    if (!loopback(own) || loopback(parentUrl)) return undefined;
    return userError(
      ErrorCode.INVALID_INPUT,
      ["input", "url"],
      `this registry would register as ${own}, which a parent at ${parentUrl} cannot call: start it with REGISTRY_PUBLIC_URL set to the URL its parent should call`,
    );
  }

  /** Leaves the parent: this registry becomes the root of its own tree ("/" plus its name). */
  async drop({ actor, access }: Caller): Promise<{ link: PublicParentLink | null; path: string }> {
    access.require("admin", "", "dropping the parent registry");
    const { link, settings } = await writeTransaction(this.deps.db.prisma, (tx) => dropParentLink(tx, actor));
    this.identity.apply(settings);
    this.deps.wakeReconciler();
    return { link: link && publicLink(link), path: this.identity.path };
  }

  /**
   * Before this registry takes the name `name`: registers under it with the parent, if it has
   * one, which may refuse it (another child has it).
   */
  async renaming(name: string): Promise<void> {
    const link = await findLiveParentLink(this.deps.db.prisma);
    if (!link) return;
    const answer = await orRemoteError(registerWith(link, name, this.identity, this.self));
    const field = ["input", "name"];
    const errors = registrationErrors(link.url, answer, { url: field, token: field, other: field });
    throwIfAny(errors);
  }
}

/** A parent link as clients see it: it holds no secret. */
export type PublicParentLink = ParentLink;

function publicLink(link: ParentLink): PublicParentLink {
  return link;
}
