import { SCHEMA_TYPES } from "@stream-registry/core";
import { compatibilityBody, flag, idParam, modeBody } from "./rest-input.ts";
import { RawText, schemaJson, type Route, type RouteCall } from "./rest-route.ts";

/** The subject of a /config/{s} or /mode/{s} route; undefined for the registry's own. */
const scope = ({ params }: RouteCall) => params.subject;

/** GET, PUT and DELETE of /config and /config/{subject}; of /mode and /mode/{subject}. */
function settingRoutes(path: string): Route[] {
  const compatibility = path.startsWith("/config");
  const setting: "compatibility" | "mode" = compatibility ? "compatibility" : "mode";
  const doing = compatibility ? "compatibility levels" : "modes";
  const shown = (value: string) => (compatibility ? { compatibilityLevel: value } : { mode: value });
  return [
    {
      method: "GET",
      path,
      role: "reader",
      doing: `reading ${doing}`,
      handle: async (call) =>
        shown(await call.registry.settings.get(setting, scope(call), flag(call.query, "defaultToGlobal"))),
    },
    {
      method: "PUT",
      path,
      role: "writer",
      doing: `setting ${doing}`,
      body: true,
      handle: async (call) => {
        const value = compatibility ? compatibilityBody(call.body) : modeBody(call.body);
        const options = { actor: call.actor, force: flag(call.query, "force") };
        return { [setting]: await call.registry.settings.set(setting, scope(call), value, options) };
      },
    },
    {
      method: "DELETE",
      path,
      role: "writer",
      doing: `deleting ${doing}`,
      handle: async (call) => shown(await call.registry.settings.clear(setting, scope(call), call.actor)),
    },
  ];
}

/** The registry's and subjects' settings, schemas by id, and what the registry offers. */
export const settingsRoutes: Route[] = [
  ...settingRoutes("/config"),
  ...settingRoutes("/config/:subject"),
  ...settingRoutes("/mode").filter((route) => route.method !== "DELETE"),
  ...settingRoutes("/mode/:subject"),
  {
    method: "GET",
    path: "/",
    role: null,
    doing: "reaching the schema registry",
    handle: async () => ({}),
  },
  {
    method: "GET",
    path: "/schemas/types",
    role: null,
    doing: "listing schema types",
    handle: async () => [...SCHEMA_TYPES],
  },
  {
    method: "GET",
    path: "/schemas/ids/:id",
    role: "reader",
    doing: "reading schemas",
    handle: async ({ registry, params }) => schemaJson(await registry.reads.schema(idParam(params.id!))),
  },
  {
    method: "GET",
    path: "/schemas/ids/:id/schema",
    role: "reader",
    doing: "reading schemas",
    handle: async ({ registry, params }) =>
      new RawText((await registry.reads.schema(idParam(params.id!))).schema),
  },
  {
    method: "GET",
    path: "/schemas/ids/:id/subjects",
    role: "reader",
    doing: "reading schemas",
    handle: async ({ registry, params, query }) => [
      ...new Set(
        (await registry.reads.usages(idParam(params.id!), flag(query, "deleted"))).map((u) => u.subject),
      ),
    ],
  },
  {
    method: "GET",
    path: "/schemas/ids/:id/versions",
    role: "reader",
    doing: "reading schemas",
    handle: ({ registry, params, query }) =>
      registry.reads.usages(idParam(params.id!), flag(query, "deleted")),
  },
];
