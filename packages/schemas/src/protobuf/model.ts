import protobuf from "protobufjs";

/** A .proto file as the compatibility rules see it: its package and its top-level types, in order. */
export interface ProtoFileModel {
  readonly packageName: string;
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
}

export interface ProtoMessage {
  readonly name: string;
  readonly fullName: string;
  /** The name without its file's package (a message moved to another package is the same message). */
  readonly localName: string;
  /** Every field, oneof members included, in declaration order. */
  readonly fields: readonly ProtoField[];
  /** Real oneofs (proto3 `optional` fields' synthetic ones left out). */
  readonly oneofs: readonly ProtoOneof[];
  readonly reserved: readonly (readonly [number, number])[];
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
}

export interface ProtoOneof {
  readonly name: string;
  readonly fields: readonly ProtoField[];
}

export interface ProtoField {
  readonly name: string;
  readonly number: number;
  readonly repeated: boolean;
  readonly required: boolean;
  readonly oneof: string | undefined;
  readonly type: ProtoFieldType;
}

export type ProtoFieldType =
  | { readonly kind: "scalar"; readonly name: string }
  | { readonly kind: "enum"; readonly fullName: string; readonly localName: string }
  | { readonly kind: "message"; readonly message: ProtoMessage }
  | { readonly kind: "map"; readonly key: ProtoFieldType; readonly value: ProtoFieldType };

export interface ProtoEnum {
  readonly name: string;
  readonly fullName: string;
  /** Value number -> its (first) name. */
  readonly values: ReadonlyMap<number, string>;
}

/**
 * Models the types `own` (the file alone) declares, reading them from `combined` (the file with its
 * imports, resolved) so that field types lead to their definitions wherever those live.
 */
export function modelFile(
  own: protobuf.Root,
  combined: protobuf.Root,
  packageName: string,
  packages: ReadonlySet<string>,
): ProtoFileModel {
  const builder = new ModelBuilder(packages);
  const declared = declaredTypes(own, packageName);
  const resolved = declared.map((type) => combined.lookup(type.fullName));
  return {
    packageName,
    messages: resolved.filter((type) => type instanceof protobuf.Type).map((type) => builder.message(type)),
    enums: resolved.filter((type) => type instanceof protobuf.Enum).map((type) => builder.enum(type)),
  };
}

function declaredTypes(root: protobuf.Root, packageName: string): protobuf.ReflectionObject[] {
  const namespace = packageName === "" ? root : root.lookup(packageName);
  return namespace instanceof protobuf.Namespace ? namespace.nestedArray : [];
}

class ModelBuilder {
  private readonly messages = new WeakMap<protobuf.Type, ProtoMessage>();

  constructor(private readonly packages: ReadonlySet<string>) {}

  message(type: protobuf.Type): ProtoMessage {
    const known = this.messages.get(type);
    if (known) return known;
    const fullName = type.fullName.slice(1);
    const model = { name: type.name, fullName, localName: this.localName(fullName) } as ProtoMessage;
    // Registered before its fields are read: a recursive message meets itself.
    this.messages.set(type, model);
    const fields = type.fieldsArray.map((field) => this.field(field));
    const oneofs = type.oneofsArray
      .filter((oneof) => !isSyntheticOneof(oneof))
      .map((oneof) => ({
        name: oneof.name,
        fields: fields.filter((field) => field.oneof === oneof.name),
      }));
    Object.assign(model, {
      fields,
      oneofs,
      reserved: (type.reserved ?? []).filter((entry): entry is number[] => Array.isArray(entry)).map(range),
      messages: nestedOf(type, protobuf.Type).map((nested) => this.message(nested)),
      enums: nestedOf(type, protobuf.Enum).map((nested) => this.enum(nested)),
    });
    return model;
  }

  enum(type: protobuf.Enum): ProtoEnum {
    const values = new Map<number, string>();
    for (const [name, number] of Object.entries(type.values)) {
      if (!values.has(number)) values.set(number, name);
    }
    return { name: type.name, fullName: type.fullName.slice(1), values };
  }

  private field(field: protobuf.Field): ProtoField {
    const oneof = field.partOf && !isSyntheticOneof(field.partOf) ? field.partOf.name : undefined;
    const value = this.type(field.type, field.resolvedType);
    const type: ProtoFieldType =
      field instanceof protobuf.MapField
        ? { kind: "map", key: { kind: "scalar", name: field.keyType }, value }
        : value;
    return {
      name: field.name,
      number: field.id,
      repeated: field.rule === "repeated",
      required: field.rule === "required",
      oneof,
      type,
    };
  }

  private type(name: string, resolved: protobuf.Type | protobuf.Enum | null): ProtoFieldType {
    if (resolved instanceof protobuf.Type) return { kind: "message", message: this.message(resolved) };
    if (resolved instanceof protobuf.Enum) {
      const fullName = resolved.fullName.slice(1);
      return { kind: "enum", fullName, localName: this.localName(fullName) };
    }
    return { kind: "scalar", name };
  }

  /** The full name less the longest known package it starts with. */
  private localName(fullName: string): string {
    let best = "";
    for (const pkg of this.packages) {
      if (pkg.length > best.length && fullName.startsWith(`${pkg}.`)) best = pkg;
    }
    return best === "" ? fullName : fullName.slice(best.length + 1);
  }
}

function isSyntheticOneof(oneof: protobuf.OneOf): boolean {
  const only = oneof.fieldsArray.length === 1 ? oneof.fieldsArray[0] : undefined;
  return only?.options?.["proto3_optional"] === true;
}

function nestedOf<T extends protobuf.ReflectionObject>(
  namespace: protobuf.Namespace,
  kind: abstract new (...args: never[]) => T,
): T[] {
  return namespace.nestedArray.filter((nested): nested is T => nested instanceof kind);
}

function range(entry: number[]): readonly [number, number] {
  return [entry[0] ?? 0, entry[1] ?? entry[0] ?? 0];
}
