import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isPermanentProviderError, ProviderError } from "@stream-registry/provider-api";
import {
  seed,
  BINDING,
  CREATE_BINDING,
  type BindingView,
  type UserErrorView,
  eventually,
} from "@stream-registry/testkit";
import { createAttempts } from "./fixtures/bundled-provider/index.ts";
import { InfrastructureError as VendoredError } from "./fixtures/bundled-provider/vendored-provider-api.ts";
import { useTestRegistry } from "./support/test-registry.ts";

const bundledModule = fileURLToPath(new URL("./fixtures/bundled-provider/index.ts", import.meta.url));

// A provider may bundle its own copy of provider-api: its errors are other classes than the
// registry's, recognised by their brand alone. The property is about errors, not storage: PGlite.
describe("a provider bundling its own copy of provider-api", () => {
  const registry = useTestRegistry("pglite", { REGISTRY_PROVIDERS: bundledModule });

  it("throws errors that are not instances of the registry's ProviderError", () => {
    const error = new VendoredError("no", { retriable: false });
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(isPermanentProviderError(error)).toBe(true);
  });

  it("has its permanent errors make the binding FAILED after one attempt, not retried forever", async () => {
    const r = registry();
    await seed(r).binding({
      stream: await seed(r).stream({ name: "refused_1" }),
      cluster: await seed(r).cluster({ name: "vendored", provider: "bundled" }),
    });
    const failed = await eventually(
      async () => {
        const { binding } = await r.query<{ binding: BindingView }>(BINDING, {
          stream: "refused_1",
          cluster: "vendored",
        });
        return binding.status.phase === "FAILED" ? binding : undefined;
      },
      10_000,
      "the binding FAILED",
    );
    expect(failed.status.message).toBe("refused for good by the bundled copy");
    // Retries come after 50-500 ms here (RECONCILER_RETRY_*): a second attempt would show by now.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(createAttempts.get("refused_1")).toBe(1);
  });

  it("has its validation refusals reported as PROVIDER_REJECTED on the field, not as an outage", async () => {
    const r = registry();
    await seed(r).cluster({ name: "vendored2", provider: "bundled" });
    await seed(r).stream({ name: "big_1" });
    const { createBinding } = await r.query<{ createBinding: { userErrors: UserErrorView[] } }>(
      CREATE_BINDING,
      { input: { stream: "big_1", cluster: "vendored2", config: { "bundled.provider": { tooBig: true } } } },
    );
    expect(createBinding.userErrors).toEqual([
      {
        code: "PROVIDER_REJECTED",
        field: ["input", "config", "bundled.provider", "tooBig"],
        message: 'provider "bundled": too big for this platform',
      },
    ]);
  });
});
