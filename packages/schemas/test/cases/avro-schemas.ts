/** Builders of the Avro schemas the cases use: a record "com.acme.Widget" and its fields. */
export const field = (name: string, type: unknown, more: object = {}) => ({ name, type, ...more });

export const record = (fields: readonly unknown[], more: object = {}) =>
  JSON.stringify({ type: "record", name: "Widget", namespace: "com.acme", fields, ...more });

/** A Widget whose only field `f` has `type`. */
export const one = (type: unknown, more: object = {}) => record([field("f", type, more)]);

export const enumOf = (symbols: readonly string[], more: object = {}) => ({
  type: "enum",
  name: "Color",
  symbols,
  ...more,
});

export const fixedOf = (size: number, name = "Hash") => ({ type: "fixed", name, size });

export const inner = (fields: readonly unknown[], name = "Part") => ({ type: "record", name, fields });

/** A linked list: `next` is a nullable List. */
export const list = (head: string) =>
  JSON.stringify({
    type: "record",
    name: "List",
    fields: [field("head", head), field("next", ["null", "List"], { default: null })],
  });

export const S1 = record([field("f1", "string")]);
export const S2 = record([field("f1", "string"), field("f2", "string", { default: "foo" })]);
export const S3 = record([field("f1", "string"), field("f2", "string")]);
export const S8 = record([
  field("f1", "string"),
  field("f2", "string", { default: "foo" }),
  field("f3", "string", { default: "bar" }),
]);
