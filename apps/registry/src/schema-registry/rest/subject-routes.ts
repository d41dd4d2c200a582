import { flag, schemaBody, versionParam } from "./rest-input.ts";
import { RawText, versionJson, type Route } from "./rest-route.ts";

/** Subjects and their versions: list, register, look up, read, delete, and check candidates. */
export const subjectRoutes: Route[] = [
  {
    method: "GET",
    path: "/subjects",
    role: "reader",
    doing: "listing subjects",
    handle: ({ registry, query }) =>
      registry.reads.subjects({
        includeDeleted: flag(query, "deleted"),
        prefix: query.get("subjectPrefix") ?? undefined,
      }),
  },
  {
    method: "GET",
    path: "/subjects/:subject/versions",
    role: "reader",
    doing: "reading a subject's versions",
    handle: ({ registry, params, query }) => registry.reads.versions(params.subject!, flag(query, "deleted")),
  },
  {
    method: "POST",
    path: "/subjects/:subject/versions",
    role: "writer",
    doing: "registering schemas",
    body: true,
    handle: async ({ registry, params, body, actor }) => {
      const { input, imported } = schemaBody(body);
      const { id } = await registry.registrations.register(params.subject!, input, { actor, imported });
      return { id };
    },
  },
  {
    method: "POST",
    path: "/subjects/:subject",
    role: "reader",
    doing: "looking up schemas",
    body: true,
    handle: async ({ registry, params, query, body }) =>
      versionJson(
        await registry.registrations.lookup(params.subject!, schemaBody(body).input, flag(query, "deleted")),
      ),
  },
  {
    method: "DELETE",
    path: "/subjects/:subject",
    role: "writer",
    doing: "deleting subjects",
    handle: ({ registry, params, query, actor }) =>
      registry.deletes.deleteSubject(params.subject!, { permanent: flag(query, "permanent"), actor }),
  },
  {
    method: "GET",
    path: "/subjects/:subject/versions/:version",
    role: "reader",
    doing: "reading schemas",
    handle: async ({ registry, params, query }) =>
      versionJson(
        await registry.reads.version(params.subject!, versionParam(params.version!), flag(query, "deleted")),
      ),
  },
  {
    method: "GET",
    path: "/subjects/:subject/versions/:version/schema",
    role: "reader",
    doing: "reading schemas",
    handle: async ({ registry, params, query }) => {
      const version = versionParam(params.version!);
      return new RawText(
        (await registry.reads.version(params.subject!, version, flag(query, "deleted"))).schema,
      );
    },
  },
  {
    method: "GET",
    path: "/subjects/:subject/versions/:version/referencedby",
    role: "reader",
    doing: "reading schemas",
    handle: ({ registry, params }) =>
      registry.reads.referencedBy(params.subject!, versionParam(params.version!)),
  },
  {
    method: "DELETE",
    path: "/subjects/:subject/versions/:version",
    role: "writer",
    doing: "deleting schemas",
    handle: ({ registry, params, query, actor }) =>
      registry.deletes.deleteVersion(params.subject!, versionParam(params.version!), {
        permanent: flag(query, "permanent"),
        actor,
      }),
  },
  {
    method: "POST",
    path: "/compatibility/subjects/:subject/versions/:version",
    role: "reader",
    doing: "checking compatibility",
    body: true,
    handle: ({ registry, params, query, body }) =>
      compatibility(query, () =>
        registry.registrations.test(params.subject!, versionParam(params.version!), schemaBody(body).input),
      ),
  },
  {
    method: "POST",
    path: "/compatibility/subjects/:subject/versions",
    role: "reader",
    doing: "checking compatibility",
    body: true,
    handle: ({ registry, params, query, body }) =>
      compatibility(query, () =>
        registry.registrations.test(params.subject!, undefined, schemaBody(body).input),
      ),
  },
];

/** Confluent's answer to a check: `is_compatible`, and the reasons with `verbose=true`. */
async function compatibility(
  query: URLSearchParams,
  test: () => Promise<{ compatible: boolean; messages: string[] }>,
): Promise<Record<string, unknown>> {
  const verbose = flag(query, "verbose");
  const { compatible, messages } = await test();
  return { is_compatible: compatible, ...(verbose && { messages }) };
}
