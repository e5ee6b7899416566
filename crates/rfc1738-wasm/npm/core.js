// rfc1738/core: the parse alone (isValid, parse, validate, check), from
// a module a third of the size of the whole package's. A Url's parts and
// offsets are there; its record, views, warnings, normal form,
// explanation and resolution are not (they throw, naming "rfc1738").
import { bind, load } from "./impl.js";

export { ParseError } from "./impl.js";
export const { Url, parse, isValid, validate, check, __memoryBytes } = bind(
  await load(new URL("./rfc1738-core.wasm", import.meta.url)),
);
