import { BINDING_RESOURCE, CONNECTOR_RESOURCES, PARENT_LINK_RESOURCE } from "@stream-registry/store";
import { handlersByKind, type Handlers } from "./handler.ts";
import { bindingHandler } from "./handlers/binding-handler.ts";
import { connectorHandler, type ConnectorKindDeps } from "./handlers/connector-handler.ts";
import { parentLinkHandler } from "./handlers/parent-link-handler.ts";

/** What the handlers of the realized kinds are made from, by handler. */
export interface KindDeps {
  binding: Parameters<typeof bindingHandler>[0];
  parentLink: Parameters<typeof parentLinkHandler>[0];
  /** Stream sources and sinks (one handler, by role). */
  connectors: ConnectorKindDeps;
}

/**
 * The reconcile kernel's kinds: each realized resource kind registers its handler here. The
 * kernel's test suite (test/kernel.test.ts) runs over every kind listed.
 */
export const REALIZED_KINDS = [
  { kind: BINDING_RESOURCE.kind, handler: (deps: KindDeps) => bindingHandler(deps.binding) },
  { kind: PARENT_LINK_RESOURCE.kind, handler: (deps: KindDeps) => parentLinkHandler(deps.parentLink) },
  {
    kind: CONNECTOR_RESOURCES.source.kind,
    handler: (deps: KindDeps) => connectorHandler(deps.connectors, "source"),
  },
  {
    kind: CONNECTOR_RESOURCES.sink.kind,
    handler: (deps: KindDeps) => connectorHandler(deps.connectors, "sink"),
  },
] as const;

/** The handlers a registry runs. */
export function realizedHandlers(deps: KindDeps): Handlers {
  return handlersByKind(
    REALIZED_KINDS.map(({ kind, handler }) => {
      const made = handler(deps);
      if (made.resource.kind !== kind)
        throw new Error(`the handler of "${kind}" is one of "${made.resource.kind}"`);
      return made;
    }),
  );
}
