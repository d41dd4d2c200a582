import { checkName, type UserError } from "@stream-registry/core";
import { declareNamespaceName, writeTransaction } from "@stream-registry/store";
import type { RegistryIdentity } from "../identity.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import type { ParentService } from "./parent-service.ts";
import { pushIf, throwIfAny } from "./user-errors.ts";

/** The namespace this registry owns: SHOW NAMESPACE reads it, DECLARE DEFAULT NAMESPACE names it. */
export class NamespaceService {
  constructor(
    private readonly deps: Pick<ServiceDeps, "db">,
    private readonly identity: RegistryIdentity,
    private readonly parent: Pick<ParentService, "renaming">,
  ) {}

  /**
   * Names this registry's namespace segment: a vanilla registry, "/", named "us-reg1-xyz" owns
   * "/us-reg1-xyz". Declaring the name it has changes nothing. Its bindings' fully qualified names
   * follow at once; the change log keeps the names entries were written under. A registry with a
   * parent registers under the new name first, and the parent may refuse it.
   */
  async declareDefault(name: string, { actor, access }: Caller): Promise<{ path: string }> {
    access.require("admin", "", "declaring this registry's namespace name");
    const errors: UserError[] = [];
    pushIf(errors, checkName(name, ["input", "name"], "namespace name"));
    throwIfAny(errors);
    if (name !== this.identity.name) await this.parent.renaming(name);
    const written = await writeTransaction(this.deps.db.prisma, (tx) =>
      declareNamespaceName(tx, name, actor),
    );
    if (written) this.identity.apply(written);
    return { path: this.identity.path };
  }
}
