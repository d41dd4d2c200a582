import { randomUUID } from "node:crypto";
import {
  declareNamespaceName,
  dropParentLink,
  enqueueJob,
  PARENT_LINK_RESOURCE,
  reregisterWithParent,
  writeTransaction,
} from "@stream-registry/store";
import { parentLinkHandler, type ParentCalls } from "../../src/reconciler/handlers/parent-link-handler.ts";
import { createLogger } from "../../src/logger.ts";
import { RegistryIdentity } from "../../src/identity.ts";
import type { SubjectFactory } from "./subjects.ts";
import { prismaOf } from "@stream-registry/store/testing";

/** The parent every link of the suite registers with: its id, path and ancestors. */
const PARENT = {
  id: randomUUID(),
  namespace: "/kernel-parent",
  version: "kernel-test",
  ancestors: [],
  keys: [],
};
const URL_BASE = "http://parent.invalid/";

/**
 * The link to the parent, the registry's second kind, over a parent that keeps its registrations
 * on the fake platform: a link is named by its URL's last segment, its registration is the
 * platform's resource (registering creates it or, registered, updates it), and the `size` is what
 * the test asks it to carry. A registry has one live link (parent_link_one_live), so making a link
 * forgets the one of an earlier case, row and job. Its handler is the registry's, with the calls
 * to the parent given here instead of HTTP.
 */
export const parentLinks: SubjectFactory = async (db, platform) => {
  // A registry registers under its name.
  const identity = await RegistryIdentity.load(db.prisma, false, () => {});
  identity.apply(
    (await writeTransaction(db.prisma, (tx) => declareNamespaceName(tx, "kernel-child", "kernel-test")))!,
  );
  const self = {
    sdl: "",
    version: "kernel-test",
    url: () => "http://child.invalid/graphql",
    keys: () => [],
    prove: async () => "a proof",
  };
  const sizes = new Map<string, number>();
  const nameOf = (url: string) => url.slice(URL_BASE.length);
  const parent: ParentCalls = {
    async register(link, _name, _identity, _self, signal) {
      const name = nameOf(link.url);
      const spec = { size: sizes.get(name) };
      if (platform.resources.has(name)) await platform.update(name, spec, signal!);
      else await platform.create(name, spec, signal!);
      return {
        accepted: true,
        parent: { registryId: PARENT.id, path: PARENT.namespace, ancestors: [], keys: [] },
      };
    },
    async check(url, _registryId, { signal }) {
      const registered = await platform.observe(nameOf(url), signal!);
      const child = { name: identity.name!, url: self.url(), version: self.version, keys: [] };
      return { parent: PARENT, child: registered ? child : null };
    },
    async unregister(url, _child, { signal }) {
      await platform.remove(nameOf(url), signal!);
      return [];
    },
  };
  const handler = parentLinkHandler({
    db,
    identity,
    self,
    logger: createLogger("silent"),
    registryKeys: { headersFor: () => ({ authorization: "" }) },
    parent,
  });
  return {
    kind: PARENT_LINK_RESOURCE.kind,
    handler,
    async create(name, size) {
      sizes.set(name, size);
      return writeTransaction(db.prisma, async (tx) => {
        await prismaOf(tx).$executeRaw`DELETE FROM job WHERE kind = ${PARENT_LINK_RESOURCE.kind}`;
        await prismaOf(tx).$executeRaw`DELETE FROM parent_link`;
        const [row] = await prismaOf(tx).$queryRaw<{ id: string }[]>`
          INSERT INTO parent_link (id, url, pending_creates, updated_at)
            VALUES (gen_random_uuid(), ${URL_BASE + name}, '[]'::jsonb, now()) RETURNING id::text AS id`;
        await enqueueJob(tx, PARENT_LINK_RESOURCE.kind, row!.id);
        return row!.id;
      });
    },
    // A new desired state of the link, as a rotation of this registry's keys makes one.
    async change(name, size) {
      sizes.set(name, size);
      await writeTransaction(db.prisma, (tx) => reregisterWithParent(tx));
    },
    async remove() {
      await writeTransaction(db.prisma, (tx) => dropParentLink(tx, "kernel-test"));
    },
    spec: (size) => ({ size }),
    realized: (name) => `registered with ${URL_BASE + name} as ${PARENT.namespace}/kernel-child`,
  };
};
