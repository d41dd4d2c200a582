import { checkNamespacePath, ErrorCode, userError } from "@stream-registry/core";
import {
  administerChildRegistry,
  writeTransaction,
  type ChildAdminAction,
  type ChildRegistry,
} from "@stream-registry/store";
import type { ChildRegistryService } from "./child-registry-service.ts";
import type { Caller, ServiceDeps } from "./deps.ts";
import { UserErrors } from "./user-errors.ts";

const DOING: Record<ChildAdminAction, string> = {
  suspend: "suspending a child registry",
  resume: "resuming a child registry",
  drop: "dropping a child registry",
};

/**
 * What an admin of this registry does with its children (SHOW / SUSPEND / RESUME / DROP CHILD
 * REGISTRY): a suspended child is not called (ChildCalls asks child-suspension.ts) and its tokens
 * are refused until it is resumed; a removed one is forgotten with its keys and its rows of the
 * discovery index, here and, through this registry's feed, in every ancestor's.
 */
export class ChildAdminService {
  constructor(
    private readonly deps: Pick<ServiceDeps, "db">,
    private readonly children: ChildRegistryService,
  ) {}

  /** Every child, suspended ones included, by name: for admins. */
  async list({ access }: Pick<Caller, "access">): Promise<ChildRegistry[]> {
    access.require("admin", "", "listing the child registries");
    return this.children.list();
  }

  /** The child at `path` as it is afterwards (as it was, removed); refused naming input.path. */
  async administer(
    action: ChildAdminAction,
    path: string,
    { actor, access }: Caller,
  ): Promise<ChildRegistry> {
    access.require("admin", "", DOING[action]);
    const name = this.childName(path);
    const child = await writeTransaction(this.deps.db.prisma, (tx) =>
      administerChildRegistry(tx, name, action, path, actor),
    );
    this.children.forgetRoutes();
    if (!child) {
      const known = (await this.children.list()).map((c) => this.children.pathOf(c.name));
      throw new UserErrors([
        userError(
          ErrorCode.NOT_FOUND,
          ["input", "path"],
          `no child registry owns ${path} here; ${known.length === 0 ? "this registry has no child registries" : `the child registries are ${known.join(", ")}`}`,
        ),
      ]);
    }
    return child;
  }

  /** The name of the child `path` would be: a path directly below this registry's. */
  private childName(path: string): string {
    const field = ["input", "path"];
    const invalid = checkNamespacePath(path, field);
    if (invalid) throw new UserErrors([invalid]);
    const name = this.children.childNameFor(path);
    if (name === null || this.children.pathOf(name) !== path) {
      const below =
        name === null ? "" : `; it is below ${this.children.pathOf(name)}: ask the registry that owns that`;
      throw new UserErrors([
        userError(
          ErrorCode.INVALID_INPUT,
          field,
          `${path} is not the namespace of a child of this registry (a path directly below ${this.children.info().namespace})${below}`,
        ),
      ]);
    }
    return name;
  }
}
