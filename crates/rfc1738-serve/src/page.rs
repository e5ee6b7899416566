//! The explorer page: HTML, script and style, embedded in the binary so
//! that the page works offline and nothing is fetched at run time.

/// `GET /`.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// `GET /app.js`.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// `GET /style.css`.
pub const STYLE_CSS: &str = include_str!("../assets/style.css");

/// `GET /favicon.svg` (and `/favicon.ico`, which browsers ask for).
pub const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");
/// `GET /api`: the OpenAPI 3.1 document of every route.
pub const OPENAPI_JSON: &str = include_str!("../assets/openapi.json");

/// The page may run only its own script and style and talk only to its
/// own server: a URL typed into it can never become markup or code.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
