//! Prints the plan of each URL given: `cargo run -p rfc1738-access --example plan -- URL...`.

fn main() {
    let opts = rfc1738_access::Options {
        news_server: Some(("news.example".into(), 119)),
        ..rfc1738_access::Options::default()
    };
    for url in std::env::args().skip(1) {
        println!("== {url}");
        match rfc1738_access::plan(&url, &opts) {
            Ok(plan) => print!("{plan}"),
            Err(e) => println!("error: {e}"),
        }
    }
}
