/** Header names that carry credentials: masked wherever a request or a definition is shown. */
export const CREDENTIAL_HEADER = /authorization|cookie|api[-_]?key|token|secret|password/i;
