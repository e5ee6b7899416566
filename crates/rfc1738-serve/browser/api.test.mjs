// The API's own description: `GET /api` is an OpenAPI 3.1 document that
// an OpenAPI validator accepts, and each route's answers match its
// schemas. scripts/test-browser passes the server in RFC1738_SERVE_URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";

// The server's own API: in the run against the static page
// (RFC1738_API_URL set by scripts/test-browser), the server beside it.
const BASE = process.env.RFC1738_API_URL || process.env.RFC1738_SERVE_URL;

async function doc() {
  const res = await fetch(BASE + "/api");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json");
  return res.json();
}

test("GET /api is a valid OpenAPI 3.1 document", async () => {
  const spec = await doc();
  assert.equal(spec.openapi, "3.1.0");
  const validator = new Validator();
  const result = await validator.validate(spec);
  assert.deepEqual(result.errors ?? [], []);
  assert.equal(result.valid, true);
  assert.equal(validator.version, "3.1");
});

test("each route answers as its schema says, a URL or not", async () => {
  const spec = await doc();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(spec, "openapi");
  // The schema of an answer, as a reference into the document.
  const schemaOf = (path, method, status, type) => {
    const response = spec.paths[path][method].responses[status];
    const at = response.$ref ? response.$ref.slice(1) : "/paths/" + path.replaceAll("/", "~1") + "/" + method + "/responses/" + status;
    return ajv.compile({ $ref: "openapi#" + at + "/content/" + type.replaceAll("/", "~1") + "/schema" });
  };
  const check = (validate, value, what) => assert.ok(validate(value), what + ": " + JSON.stringify(validate.errors));
  for (const url of ["ftp://@host.dom/%2Fetc/motd;type=a", "http://host.dom/my file.html", "no scheme", "gopher://h.dom/7a%09b"]) {
    for (const path of ["/api/parse", "/api/view", "/api/normalize", "/api/explain"]) {
      const res = await fetch(BASE + path + "?url=" + encodeURIComponent(url));
      assert.equal(res.status, 200, path + " " + url);
      check(schemaOf(path, "get", "200", "application/json"), await res.json(), path + " " + url);
    }
  }
  for (const [path, body] of [["/api/check", "http://a.dom/\nhttp://b.dom/ x\n"], ["/api/extract", "see <URL:ftp://h.dom/x> and http://a b"]]) {
    const res = await fetch(BASE + path, { method: "POST", body });
    assert.equal(res.status, 200, path);
    const validate = schemaOf(path, "post", "200", "application/x-ndjson");
    for (const line of (await res.text()).split("\n").filter((l) => l)) check(validate, JSON.parse(line), path);
  }
  const missing = await fetch(BASE + "/api/parse");
  assert.equal(missing.status, 400);
  check(schemaOf("/api/parse", "get", "400", "application/json"), await missing.json(), "400");
});
