// Declarations of `rfc1738/core`: the parse alone. A `Url` of it has its
// parts and offsets; its `toJSON`, views, `warnings`, `normalize`,
// `resolve` and `explain` throw (they are in "rfc1738").
export { Url, ParseError, Options, Kind, Offsets, CheckResult, parse, isValid, validate, check } from "./rfc1738.js";
