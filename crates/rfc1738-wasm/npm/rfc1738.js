// rfc1738: URLs read exactly as RFC 1738 defines them (the whole
// package: the parse, the record, views, warnings, normal form,
// explanation, resolution, extraction). impl.js holds the code.
import { bind, load } from "./impl.js";

export { ParseError, ResolveError } from "./impl.js";
export const { Url, parse, isValid, validate, normalize, explain, resolve, extract, check, __memoryBytes } = bind(
  await load(new URL("./rfc1738.wasm", import.meta.url)),
);
