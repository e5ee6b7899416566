// Where the built package is: $RFC1738_NPM, else target/npm of the
// workspace (scripts/build-npm writes it there).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.env.RFC1738_NPM || join(here, "../../../target/npm"));
export const pkg = pathToFileURL(join(dir, "rfc1738.js")).href;
