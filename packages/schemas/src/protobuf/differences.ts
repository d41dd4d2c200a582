/**
 * Confluent's Protobuf difference types (original = the writer's schema, update = the reader's),
 * plus FIELD_NUMBER_CHANGED (as Karapace reports it) and RESERVED_FIELD_NUMBER_REUSED.
 */
export const COMPATIBLE: ReadonlySet<string> = new Set([
  // Messages are matched by their names without package, so moving them is allowed.
  "PACKAGE_CHANGED",
  "MESSAGE_ADDED",
  "MESSAGE_MOVED",
  "ENUM_ADDED",
  "ENUM_REMOVED",
  "ENUM_CONST_ADDED",
  "ENUM_CONST_CHANGED",
  "ENUM_CONST_REMOVED",
  "FIELD_ADDED",
  "FIELD_REMOVED",
  "FIELD_NAME_CHANGED",
  "FIELD_STRING_OR_BYTES_LABEL_CHANGED",
  "ONEOF_ADDED",
  "ONEOF_REMOVED",
  "ONEOF_FIELD_ADDED",
]);

export const INCOMPATIBLE: Readonly<Record<string, string>> = {
  MESSAGE_REMOVED: "a message was removed",
  FIELD_KIND_CHANGED: "a field changed between scalar, message and map",
  FIELD_SCALAR_KIND_CHANGED: "a field's scalar type changed to one of another wire group",
  FIELD_NAMED_TYPE_CHANGED: "a field's message type changed (another name, or an incompatible definition)",
  FIELD_NUMERIC_LABEL_CHANGED: "a numeric field changed between repeated and singular",
  REQUIRED_FIELD_ADDED: "a required field was added",
  REQUIRED_FIELD_REMOVED: "a required field was removed",
  ONEOF_FIELD_REMOVED: "a field was removed from a oneof",
  MULTIPLE_FIELDS_MOVED_TO_ONEOF: "several existing fields were moved into one oneof",
  FIELD_MOVED_TO_EXISTING_ONEOF: "an existing field was moved into a oneof that already had fields",
  FIELD_NUMBER_CHANGED: "a field kept its name but changed its number",
  RESERVED_FIELD_NUMBER_REUSED: "a field uses a number the previous version reserved",
};
