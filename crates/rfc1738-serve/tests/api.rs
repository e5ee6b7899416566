//! The JSON API against the real server, on a free loopback port.

use rfc1738_serve::Config;
use serde_json::Value;
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::Duration;

/// The server of this test binary, started once: its base address.
fn server() -> &'static str {
    static BASE: OnceLock<String> = OnceLock::new();
    BASE.get_or_init(|| {
        let config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            max_body: 64 << 10,
            max_lines: 3000,
            max_url: 2048,
            timeout: Duration::from_secs(5),
            ..Config::default()
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || rfc1738_serve::run(&config, |addr| tx.send(addr).unwrap()).unwrap());
        format!("http://{}", rx.recv_timeout(Duration::from_secs(10)).unwrap())
    })
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).build().into()
}

/// `GET path?url=...`: the status, the content type and the body.
fn get(path: &str, url: &str) -> (u16, String, String) {
    let mut res = agent().get(format!("{}{path}", server())).query("url", url).call().unwrap();
    let kind = res.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    (res.status().as_u16(), kind, res.body_mut().read_to_string().unwrap())
}

fn post(path: &str, body: &str) -> (u16, String) {
    let mut res = agent().post(format!("{}{path}", server())).send(body).unwrap();
    (res.status().as_u16(), res.body_mut().read_to_string().unwrap())
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn parse_is_the_parse_json_record() {
    let (status, kind, body) = get("/api/parse", "ftp://@host.dom/%2Fetc/motd");
    assert_eq!((status, kind.as_str()), (200, "application/json"));
    let v = json(&body);
    assert_eq!(v["user"], "", "an empty user is not an absent one");
    assert_eq!(v["ftp"]["cwd"][0], "/etc");
    let invalid = json(&get("/api/parse", "http://a.dom/<script>").2);
    assert_eq!((invalid["valid"].as_bool(), invalid["error"]["offset"].as_u64()), (Some(false), Some(13)));
    let lenient = json(&get("/api/parse?lenient=true", "http://a.dom/~x").2);
    assert_eq!(lenient["valid"], true);
}

#[test]
fn normalize_and_explain() {
    let (status, _, body) = get("/api/normalize", "HTTP://A.dom:80/%7ex");
    assert_eq!((status, json(&body)["normal"].as_str()), (200, Some("http://a.dom/%7Ex")));
    let (status, kind, body) = get("/api/explain", "gopher://h.dom/7a%09b");
    assert_eq!((status, kind.as_str()), (200, "application/json"));
    let lines = json(&body)["explain"].clone();
    assert!(
        lines.as_array().unwrap().iter().any(|l| l.as_str().unwrap().contains("send a<TAB>b<CR><LF>")),
        "{body}"
    );
}

/// One status rule for every route: an input that is not a URL is still
/// answered 200, with `valid: false` and the error.
#[test]
fn an_input_that_is_not_a_url_is_answered_200_everywhere() {
    for path in ["/api/parse", "/api/view", "/api/normalize", "/api/explain"] {
        let (status, kind, body) = get(path, "http://a b/");
        assert_eq!((status, kind.as_str()), (200, "application/json"), "{path}");
        let v = json(&body);
        let record = if path == "/api/view" { &v["record"] } else { &v };
        assert_eq!(record["valid"], false, "{path}: {body}");
        assert_eq!(record["error"]["kind"], "unsafe", "{path}: {body}");
    }
    let (status, body) = post("/api/check", "http://a b/\n");
    assert_eq!(status, 200);
    assert_eq!(json(body.lines().next().unwrap())["valid"], false);
}

/// The OpenAPI document names every route of the router, each with the
/// statuses it answers; each route answers a documented status.
#[test]
fn the_openapi_document_describes_every_route() {
    let mut res = agent().get(format!("{}/api", server())).call().unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let doc = json(&res.body_mut().read_to_string().unwrap());
    assert_eq!(doc["openapi"], "3.1.0");
    let documented: Vec<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| ops.as_object().unwrap().keys().map(move |m| (path.clone(), m.clone())))
        .collect();
    // The routes, as lib.rs declares them.
    let source = include_str!("../src/lib.rs");
    let mut routed: Vec<(String, String)> = source
        .lines()
        .filter_map(|l| {
            l.trim().strip_prefix(".route(\"/").filter(|r| r.starts_with("api") || r.starts_with("openapi"))
        })
        .map(|rest| {
            let path = format!("/{}", &rest[..rest.find('"').unwrap()]);
            let method = if rest.contains("post(") { "post" } else { "get" };
            (path, method.to_string())
        })
        .collect();
    routed.sort();
    let mut sorted = documented.clone();
    sorted.sort();
    assert_eq!(sorted, routed, "the document and the router name the same routes");
    for (path, method) in &documented {
        let (status, _) = if method == "get" {
            let (status, _, body) = get(path, "http://a b/");
            (status, body)
        } else {
            post(path, "http://a.dom/\n")
        };
        let statuses = doc["paths"][path][method]["responses"].as_object().unwrap();
        assert!(statuses.contains_key(&status.to_string()), "{method} {path}: {status} is not documented");
        for documented_status in statuses.keys() {
            assert!(
                ["200", "400", "404", "405", "408", "413", "414", "415", "421", "431", "503"]
                    .contains(&documented_status.as_str()),
                "{path}: {documented_status}"
            );
        }
    }
}

#[test]
fn view_gives_the_spans_of_the_parts() {
    let v = json(&get("/api/view", "ftp://u@h.dom/a/f;type=i").2);
    let parts: Vec<&str> =
        v["spans"].as_array().unwrap().iter().map(|s| s["part"].as_str().unwrap()).collect();
    assert_eq!(parts, ["scheme", "user", "host", "ftp.cwd", "ftp.name", "ftp.typecode"]);
    assert_eq!(v["normal"], "ftp://u@h.dom/a/f;type=i");
}

#[test]
fn check_streams_one_record_per_line() {
    let lines: String = (0..2500)
        .map(|i| if i % 5 == 0 { format!("http://h/{i} x\n") } else { format!("http://h/{i}\n") })
        .collect();
    let (status, body) = post("/api/check", &lines);
    assert_eq!(status, 200);
    let rows: Vec<Value> = body.lines().map(json).collect();
    assert_eq!(rows.len(), 2500);
    assert_eq!(rows[2499]["line"], 2500, "line numbers run on across the streamed pieces");
    assert_eq!(rows.iter().filter(|r| r["valid"] == false).count(), 500);
    assert_eq!(rows[0]["error"]["offset"], 10);
}

#[test]
fn extract_finds_the_urls_in_text() {
    let (status, body) =
        post("/api/extract", "Read <URL:ftp://ftp.dom/pub/rfc1738.txt> or http://www.dom/.\n");
    assert_eq!(status, 200);
    let rows: Vec<Value> = body.lines().map(json).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["url"], "ftp://ftp.dom/pub/rfc1738.txt");
}

#[test]
fn every_request_is_bounded() {
    let (status, _, body) = get("/api/parse", &format!("http://h/{}", "a".repeat(4000)));
    assert_eq!(status, 414, "{body}");
    assert!(json(&body)["error"]["message"].as_str().unwrap().contains("more than the limit of 2048"));
    let too_many: String = "h:\n".repeat(3001);
    let (status, body) = post("/api/check", &too_many);
    assert_eq!(status, 413);
    assert!(body.contains("3001 lines, more than the limit of 3000"), "{body}");
    let (status, _) = post("/api/extract", &"x".repeat(70 << 10));
    assert_eq!(status, 413);
    let (status, _, body) = get("/api/parse", "");
    assert_eq!(status, 200, "{body}");
    let mut res = agent().get(format!("{}/api/parse", server())).call().unwrap();
    assert_eq!(res.status().as_u16(), 400);
    assert!(res.body_mut().read_to_string().unwrap().contains("missing the url parameter"));
}

#[test]
fn the_page_is_embedded_and_guarded() {
    let mut res = agent().get(format!("{}/", server())).call().unwrap();
    let csp = res.headers().get("content-security-policy").unwrap().to_str().unwrap().to_string();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
    let page = res.body_mut().read_to_string().unwrap();
    assert!(page.contains("<script src=\"/app.js\" defer></script>"));
    for far in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(!page.contains(far), "nothing is fetched from elsewhere: {far}");
    }
    let mut js = agent().get(format!("{}/app.js", server())).call().unwrap();
    let script = js.body_mut().read_to_string().unwrap();
    assert!(!script.contains("innerHTML"), "typed text never becomes markup");
    let (status, _) = post("/api/parse", "");
    assert_eq!(status, 405);
}

/// A raw request on a new connection: the whole answer, until the server
/// closes (every request here says `Connection: close`, or is refused).
fn raw(request: &[u8]) -> String {
    use std::io::{Read, Write};
    let addr = server().strip_prefix("http://").unwrap();
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = s.write_all(request);
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    String::from_utf8_lossy(&got).into_owned()
}

/// The status and the JSON body of a raw answer.
fn answer(text: &str) -> (u16, Value) {
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Every error is `{"error": {"kind", "message"}}` with the security
/// headers, whoever raises it: a handler, the router, the body reader, or
/// hyper itself on a head it cannot read.
#[test]
fn every_error_has_one_shape() {
    let host = server().strip_prefix("http://").unwrap().to_string();
    let long_target = format!("/api/parse?url={}", "a".repeat(70_000));
    let long_head = format!("GET / HTTP/1.1\r\nHost: {host}\r\nX-Long: {}\r\n\r\n", "b".repeat(90_000));
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (format!("GET /api/parse HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into(), 400, "missing-url"),
        (format!("GET /api/parse?url=%FF HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into(), 400, "not-utf8"),
        (format!("GET /api/parse?url=a&url=b HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into(), 400, "repeated-parameter"),
        (format!("GET /api/view?url=a&lenient=yes HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into(), 400, "bad-parameter"),
        (format!("GET /nowhere HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into(), 404, "not-found"),
        (format!("DELETE /api/parse HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").into(), 405, "method-not-allowed"),
        (format!("POST /api/check HTTP/1.1\r\nHost: {host}\r\nContent-Length: 70000\r\n\r\n").into(), 413, "body-too-large"),
        ([format!("POST /api/extract HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: 2\r\n\r\n").as_bytes(), b"\xFF\xFE"].concat(), 400, "not-utf8"),
        (format!("GET /api/parse?url={} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n", "a".repeat(3000)).into(), 414, "url-too-long"),
        (format!("GET {long_target} HTTP/1.1\r\nHost: {host}\r\n\r\n").into(), 414, "url-too-long"),
        (long_head.into(), 431, "head-too-large"),
        (b"GET / HTTP/1.1\r\nHost: evil.dom\r\nConnection: close\r\n\r\n".to_vec(), 421, "other-host"),
        (b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(), 400, "no-host"),
        (format!("GET / HTTP/1.1\r\nHost: {host}\r\nHost: evil.dom\r\nConnection: close\r\n\r\n").into(), 400, "two-hosts"),
        (b"GET / HTTP/1.1\r\nHost: a b\r\n\x01\r\n\r\n".to_vec(), 400, "bad-head"),
        (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(), 505, "http2"),
        ([format!("POST /api/check HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n").as_bytes(), b"{}"].concat(), 415, "unsupported-type"),
    ];
    let doc = json(include_str!("../assets/openapi.json"));
    let kinds =
        doc["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["kind"]["enum"].clone();
    for (request, status, kind) in cases {
        assert!(kinds.as_array().unwrap().contains(&Value::from(kind)), "{kind} is not in the document");
        let text = raw(&request);
        let (got, body) = answer(&text);
        let head = text.split("\r\n\r\n").next().unwrap_or("");
        assert_eq!((got, body["error"]["kind"].as_str()), (status, Some(kind)), "{head}");
        assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{text}");
        let lower = head.to_ascii_lowercase();
        assert!(lower.contains("content-type: application/json"), "{head}");
        assert!(lower.contains("content-security-policy: default-src 'none'"), "{head}");
        assert!(lower.contains("x-content-type-options: nosniff"), "{head}");
    }
    // HTTP/1.0 without Host is answered.
    let text = raw(b"GET /api/parse?url=http://a.dom/ HTTP/1.0\r\n\r\n");
    assert_eq!(answer(&text).0, 200, "{text}");
}

/// `GET /openapi.json` is the document of `GET /api`, where tools look
/// for it first.
#[test]
fn the_document_is_also_at_openapi_json() {
    let mut res = agent().get(format!("{}/openapi.json", server())).call().unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let kind = res.headers().get("content-type").unwrap().to_str().unwrap().to_string();
    assert_eq!(kind, "application/json");
    assert_eq!(res.body_mut().read_to_string().unwrap(), include_str!("../assets/openapi.json"));
}

/// A `url` too long for the server is 414 whatever its length: over the
/// `max_url` of the routes, over the longest request line hyper reads,
/// and over the whole head it buffers.
#[test]
fn a_url_too_long_is_414_whatever_its_length() {
    let host = server().strip_prefix("http://").unwrap().to_string();
    for n in [3_000, 66_000, 81_000, 82_000, 100_000] {
        let text = raw(format!(
            "GET /api/parse?url={} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n",
            "a".repeat(n)
        )
        .as_bytes());
        let (status, body) = answer(&text);
        assert_eq!((status, body["error"]["kind"].as_str()), (414, Some("url-too-long")), "{n} bytes");
    }
}

/// The bodies of `POST /api/check` and `/api/extract` are text: a body
/// of another type (JSON, a multipart form, another charset) is 415, not
/// read as lines. No type, any `text/*` in UTF-8, and the type curl gives
/// `--data-binary` by default are read.
#[test]
fn a_body_of_another_type_is_415() {
    for path in ["/api/check", "/api/extract"] {
        for kind in ["application/json", "multipart/form-data; boundary=x", "text/plain; charset=utf-16"] {
            let mut res = agent()
                .post(format!("{}{path}", server()))
                .header("content-type", kind)
                .send(r#"{"url": "http://a.dom/"}"#)
                .unwrap();
            let status = res.status().as_u16();
            let body = json(&res.body_mut().read_to_string().unwrap());
            assert_eq!(
                (status, body["error"]["kind"].as_str()),
                (415, Some("unsupported-type")),
                "{path} {kind}"
            );
            assert!(body["error"]["message"].as_str().unwrap().contains("text/plain"), "{body}");
        }
        for kind in [
            "text/plain",
            "text/plain; charset=UTF-8",
            "TEXT/x-log",
            "application/x-www-form-urlencoded",
            "application/octet-stream",
        ] {
            let mut res = agent()
                .post(format!("{}{path}", server()))
                .header("content-type", kind)
                .send("http://a.dom/\n")
                .unwrap();
            assert_eq!(
                res.status().as_u16(),
                200,
                "{path} {kind}: {}",
                res.body_mut().read_to_string().unwrap()
            );
        }
    }
}

/// A client may shut its side of the connection once the request is
/// sent (`shutdown(SHUT_WR)`, `nc -N`): the answer still comes.
#[test]
fn a_request_then_a_half_close_is_answered() {
    use std::io::{Read, Write};
    let addr = server().strip_prefix("http://").unwrap();
    let body = "http://a.dom/\n";
    for request in [
        format!("GET /api/parse?url=http://a.dom/ HTTP/1.1\r\nHost: {addr}\r\n\r\n"),
        format!("POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n{body}", body.len()),
    ] {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        s.shutdown(std::net::Shutdown::Write).unwrap();
        let mut got = Vec::new();
        let _ = s.read_to_end(&mut got);
        let text = String::from_utf8_lossy(&got);
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{request:?}: {text:?}");
        assert!(text.contains(r#""valid":true"#), "{text}");
    }
}

/// The Host rule holds for a request whose target is a whole URL
/// (absolute form): its authority names the server, not `Host`
/// (RFC 9112 §3.2.2).
#[test]
fn an_absolute_target_is_held_to_the_host_rule() {
    let host = server().strip_prefix("http://").unwrap().to_string();
    let evil = raw(format!(
        "GET http://evil.example/api/parse?url=x HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .as_bytes());
    let (status, body) = answer(&evil);
    assert_eq!((status, body["error"]["kind"].as_str()), (421, Some("other-host")), "{evil}");
    assert!(body["error"]["message"].as_str().unwrap().contains("evil.example"), "{body}");
    let own = raw(format!(
        "GET http://{host}/api/parse?url=x HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .as_bytes());
    assert_eq!(answer(&own).0, 200, "{own}");
}

/// One verdict: the committed sample log posted to `/api/check` gives the
/// records `rfc1738 check --input-format clf --json` gives (the one rule,
/// `clf::record_with` with the referer): empty lines skipped, line
/// numbers kept, referers checked.
#[test]
fn a_log_posted_is_checked_as_the_command_checks_it() {
    use rfc1738_report::clf::{record_with, Fields};
    let log = include_str!("../../rfc1738-py/tests/data/access.log");
    let (status, body) = post("/api/check?format=clf", log);
    assert_eq!(status, 200);
    let rows: Vec<Value> = body.lines().map(json).collect();
    let want: Vec<(usize, &str)> =
        log.lines().enumerate().filter(|(_, l)| !l.is_empty()).map(|(k, l)| (k + 1, l)).collect();
    assert_eq!(rows.len(), want.len(), "one object per non-empty line");
    assert!(want.len() < log.lines().count(), "the sample has an empty line");
    for (row, (no, line)) in rows.iter().zip(want) {
        let mut record = record_with(line.as_bytes(), false, Fields::BOTH).to_json();
        record.insert("line".into(), no.into());
        record.insert("input".into(), line.into());
        for (key, value) in &record {
            assert_eq!(&row[key], value, "line {no}: {key}");
        }
    }
    assert!(rows.iter().any(|r| r["referer_valid"] == false && r["valid"] == false), "referers are checked");
}
