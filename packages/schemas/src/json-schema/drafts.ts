import type { Ajv as AjvInstance, Options } from "ajv";
import AjvDraft07 from "ajv";
import Ajv2019 from "ajv/dist/2019.js";
import Ajv2020 from "ajv/dist/2020.js";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };

/** The JSON Schema drafts Confluent accepts; a schema without `$schema` is draft-07. */
export type JsonDraft = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

const DRAFT_URLS: Record<string, JsonDraft> = {
  "json-schema.org/draft-04/schema": "draft-04",
  "json-schema.org/draft-06/schema": "draft-06",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft/2020-12/schema": "2020-12",
};

export function draftOf(declared: unknown): JsonDraft | undefined {
  if (declared === undefined) return "draft-07";
  if (typeof declared !== "string") return undefined;
  const key = declared.replace(/^https?:\/\//, "").replace(/#$/, "");
  return DRAFT_URLS[key];
}

// Confluent accepts keywords it does not know (connect.*, custom annotations): not strict; formats
// it does not know are not an error either.
const OPTIONS: Options = { strict: false, logger: false, allErrors: true, validateFormats: true };

const instances = new Map<JsonDraft, AjvInstance>();

/** One ajv per draft, reused: callers remove what they added (`removeSchema()`) when done. */
export function ajvFor(draft: JsonDraft): AjvInstance {
  let ajv = instances.get(draft);
  if (!ajv) {
    ajv = create(draft);
    addFormats.default(ajv);
    instances.set(draft, ajv);
  }
  return ajv;
}

function create(draft: JsonDraft): AjvInstance {
  switch (draft) {
    case "draft-04":
      return new AjvDraft04.default(OPTIONS) as unknown as AjvInstance;
    case "draft-06": {
      const ajv = new AjvDraft07.default(OPTIONS);
      ajv.addMetaSchema(draft06MetaSchema);
      return ajv;
    }
    case "2019-09":
      return new Ajv2019.default(OPTIONS);
    case "2020-12":
      return new Ajv2020.default(OPTIONS);
    default:
      return new AjvDraft07.default(OPTIONS);
  }
}
