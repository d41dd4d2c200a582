/** Builders of the JSON Schemas the cases use. */
export const str = (schema: unknown) => JSON.stringify(schema);

/** An object with these properties, open to others unless `more` says otherwise. */
export const obj = (properties: Record<string, unknown>, more: object = {}) =>
  str({ type: "object", properties, ...more });

export const closed = (properties: Record<string, unknown>, more: object = {}) =>
  obj(properties, { additionalProperties: false, ...more });

/** An object whose property `a` has `schema`. */
export const a = (schema: unknown, more: object = {}) => obj({ a: schema }, more);

export const S = { type: "string" };
export const I = { type: "integer" };
export const N = { type: "number" };
