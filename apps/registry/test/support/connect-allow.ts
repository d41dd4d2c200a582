/** The refusal REGISTRY_CONNECT_ALLOW gives an address it does not allow, as a user reads it. */
export const refusal = (label: string, address: string) =>
  `${label} ${address} is not in REGISTRY_CONNECT_ALLOW: this registry connects only to the hosts and networks its operator allows`;
