// Declarations of the `rfc1738` package, written by hand for its
// JavaScript (rfc1738.js). The scheme views are the objects of the
// `parse --json` record (RFC 1738 §3.2 to §3.11), as the Python stubs have.

/** Options of every function that reads a URL. */
export interface Options {
  /** Accept the deviations real URLs have (a space, an unsafe character,
   * ...), each recorded as a warning. Default `false`: RFC 1738 alone. */
  lenient?: boolean;
}

/** The scheme kinds of RFC 1738 §3, and `https` (read by http's rules,
 * RFC 2818 §2.4); `other` is any other scheme. */
export type Kind =
  | "ftp" | "http" | "gopher" | "mailto" | "news" | "nntp"
  | "telnet" | "wais" | "file" | "prospero" | "https" | "other";

/** Why a text is not a URL of RFC 1738. */
export class ParseError extends Error {
  readonly name: "ParseError";
  /** The text that was read. */
  readonly input: string;
  /** Index into `input` of the first character no rule accepts. */
  readonly offset: number;
  /** The error's kind, e.g. `non-ascii`, `invalid-escape`. */
  readonly kind: string;
  /** The §5 rule being matched, e.g. `hostname`. */
  readonly rule: string;
  /** Why, in one lower-case line. */
  readonly reason: string;
  /** In `check`'s answer: the line's index. */
  line?: number;
}

/** Why a reference could not be resolved against a base (RFC 1808). */
export class ResolveError extends Error {
  readonly name: "ResolveError";
  readonly reference: string;
  /** In the reference; in `resolved` for kind `not-rfc1738`. */
  readonly offset: number;
  readonly kind: "not-hierarchical" | "invalid-char" | "invalid-escape" | "not-rfc1738" | string;
  /** The §5 rule of a `not-rfc1738` error, else `null`. */
  readonly rule: string | null;
  /** The text RFC 1808 §4 produced, for kind `not-rfc1738`. */
  readonly resolved: string | null;
}

/** A warning: a deviation a lenient parse accepted, or a §6 security risk. */
export interface Warning {
  offset: number;
  len: number;
  kind: string;
  security: boolean;
  message: string;
}

/** §3.2: FTP. */
export interface FtpView {
  /** The directories to change into, decoded. */
  cwd: string[];
  /** The file's name, decoded. */
  name: string;
  /** The `;type=` code: `a`, `i` or `d`. */
  typecode: string | null;
  /** The FTP commands a client sends. */
  commands: string[];
  /** The USER and PASS lines. */
  login: string[];
}
/** §3.3: HTTP. */
export interface HttpView {
  path: string | null;
  search: string | null;
}
/** §3.4: Gopher. */
export interface GopherView {
  type: string;
  selector: string;
  search: string | null;
  plus: string | null;
  /** The line sent to the server. */
  request: string;
}
/** §3.5: MAILTO. */
export interface MailtoView {
  address: string;
}
/** §3.6: NEWS. */
export interface NewsView {
  group: string | null;
  article: string | null;
  all: boolean;
}
/** §3.7: NNTP. */
export interface NntpView {
  group: string;
  article: number | null;
}
/** §3.8: TELNET: nothing beyond the login. */
export type TelnetView = Record<string, never>;
/** §3.9: WAIS. */
export interface WaisView {
  form: "database" | "index" | "doc";
  database: string;
  search: string | null;
  wtype: string | null;
  wpath: string | null;
}
/** §3.10: FILES. */
export interface FileView {
  host: string | null;
  path: string | null;
  is_local: boolean;
}
/** §3.11: PROSPERO. */
export interface ProsperoView {
  hsoname: string;
  fields: [string, string][];
}
/** Any other scheme (§2.1, §4). */
export interface OtherView {
  scheme_specific_part: string;
  reserved: boolean;
  experimental: boolean;
}

/** The record `rfc1738 parse --json` writes. */
export interface UrlRecord {
  input: string;
  valid: boolean;
  error: { offset: number; kind: string; rule: string; message: string } | null;
  scheme: string | null;
  kind: Kind | null;
  fragment: string | null;
  warnings: Warning[];
  user?: string | null;
  password?: string | null;
  host?: string | null;
  port?: number | null;
  effective_port?: number | null;
  url_path?: string | null;
  ftp?: FtpView;
  http?: HttpView;
  gopher?: GopherView;
  mailto?: MailtoView;
  news?: NewsView;
  nntp?: NntpView;
  telnet?: TelnetView;
  wais?: WaisView;
  file?: FileView;
  prospero?: ProsperoView;
  https?: HttpView;
  other?: OtherView;
}

/** Where each part lies: `[start, end)` indices into the input. */
export interface Offsets {
  scheme: [number, number];
  user: [number, number] | null;
  password: [number, number] | null;
  host: [number, number] | null;
  port: [number, number] | null;
  urlPath: [number, number] | null;
  fragment: [number, number] | null;
}

/** A URL that matched RFC 1738: the input once, its parts as offsets. */
export class Url {
  /** Parses `input`; throws `ParseError`, or `TypeError` for a value
   * that is not a string. */
  constructor(input: string, options?: Options);
  readonly offsets: Offsets;
  /** The input with its scheme lower-cased (§2.1). */
  readonly href: string;
  /** Lower-cased (§2.1). */
  readonly scheme: string;
  readonly kind: Kind;
  /** Decoded; `null` when absent, `""` when empty (§3.1). */
  readonly user: string | null;
  /** Decoded; `null` when absent, `""` when empty (§3.1). */
  readonly password: string | null;
  readonly host: string | null;
  /** The explicit port's number (§5 gives no range). */
  readonly port: number | null;
  /** The explicit port or the scheme's default; `null` above 65535. */
  readonly effectivePort: number | null;
  /** Raw, without the `/` before it (§3.1). */
  readonly urlPath: string | null;
  /** Raw (§2.2: not part of the URL). */
  readonly fragment: string | null;
  readonly isLenient: boolean;
  readonly warnings: Warning[];
  readonly ftp: FtpView | null;
  readonly http: HttpView | null;
  readonly gopher: GopherView | null;
  readonly mailto: MailtoView | null;
  readonly news: NewsView | null;
  readonly nntp: NntpView | null;
  readonly telnet: TelnetView | null;
  readonly wais: WaisView | null;
  readonly file: FileView | null;
  readonly prospero: ProsperoView | null;
  /** An https URL's view: http's parts (RFC 2818 §2.4). */
  readonly https: HttpView | null;
  readonly other: OtherView | null;
  /** The normal form: only what the RFC says does not matter is changed. */
  normalize(): Url;
  /** The URL `reference` names relative to this one (RFC 1808 §4). */
  resolve(reference: string): Url;
  /** What a client does with this URL, one line per step. */
  explain(): string[];
  toJSON(): UrlRecord;
  toString(): string;
}

/** Parses `input`; throws `ParseError`. */
export function parse(input: string, options?: Options): Url;
/** Whether `input` is a URL of RFC 1738 (`false` for any other value). */
export function isValid(input: unknown, options?: Options): boolean;
/** `null` when `input` is a URL, else why not (returned, not thrown). */
export function validate(input: string, options?: Options): ParseError | null;
/** The normal form's text; throws `ParseError`. */
export function normalize(input: string, options?: Options): string;
/** What a client does with the URL, one line per step; throws `ParseError`. */
export function explain(input: string, options?: Options): string[];
/** `reference` resolved against `base` (RFC 1808 §4); throws
 * `ParseError` for the base, `ResolveError` for the reference. */
export function resolve(base: string, reference: string, options?: Options): string;

/** A URL found in free text (RFC 1738 Appendix). */
export interface Found {
  url: string;
  /** Indices into the text of the match, its wrapper included. */
  start: number;
  end: number;
  form: "url-prefix" | "angle" | "bare";
  /** Indices into `url` of hyphens a line break followed. */
  hyphenBreaks: number[];
  valid: boolean;
  scheme: string;
  error: { offset: number; kind: string; rule: string; message: string } | null;
}
/** The URLs in free text. */
export function extract(text: string): Found[];

/** What `check` says of many lines. */
export interface CheckResult {
  /** The number of lines. */
  length: number;
  /** 1 for each valid line, 0 for each other. */
  valid: Uint8Array;
  invalid: number;
  /** The errors of the invalid lines, each with its `line`. */
  errors: ParseError[];
}
/** Many URLs in one call: a string of lines (`\n` or `\r\n`; no last
 * empty line) or an array of strings. */
export function check(lines: string | string[], options?: Options): CheckResult;
