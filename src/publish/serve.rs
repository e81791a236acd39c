//! EDGE: the built site answered over HTTP on localhost, for `gitnomic
//! serve`'s preview: a GET or HEAD of a file under the output directory,
//! never outside it. Not a production server.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

/// Answers one GET or HEAD request with a file of `out`.
pub(crate) fn respond(mut stream: TcpStream, out: &Path) -> std::io::Result<()> {
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line)?;
    let mut words = line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let file = resolve(out, target);
    let (status, body, kind) = match (
        method,
        file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))),
    ) {
        ("GET" | "HEAD", Some((path, bytes))) => ("200 OK", bytes, content_type(&path)),
        ("GET" | "HEAD", None) => ("404 Not Found", b"not found\n".to_vec(), "text/plain"),
        _ => ("405 Method Not Allowed", Vec::new(), "text/plain"),
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// The file a request target names under `out`; never outside it.
fn resolve(out: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    // A `%` not followed by two hex digits stands for itself.
    let path = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let mut file = out.to_path_buf();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p if p.contains('\\') => return None,
            p => file.push(p),
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

/// The Content-Type of a site file, by its extension.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("xml") => "application/atom+xml",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_requests_inside_the_site_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ruleset")).unwrap();
        std::fs::write(dir.path().join("ruleset/index.html"), "x").unwrap();
        std::fs::write(dir.path().join("a b.css"), "x").unwrap();
        let found = |t: &str| {
            resolve(dir.path(), t).map(|p| p.strip_prefix(dir.path()).unwrap().to_path_buf())
        };
        assert_eq!(
            found("/ruleset/#x"),
            Some(PathBuf::from("ruleset/index.html"))
        );
        assert_eq!(found("/a%20b.css?v=1"), Some(PathBuf::from("a b.css")));
        assert_eq!(found("/../etc/passwd"), None);
        assert_eq!(found("/%2e%2e/x"), None);
        assert_eq!(found("/ruleset%2F..%2F..%2Fetc"), None);
        std::fs::write(dir.path().join("100%.txt"), "x").unwrap();
        assert_eq!(found("/100%25.txt"), Some(PathBuf::from("100%.txt")));
        assert_eq!(found("/100%.txt"), Some(PathBuf::from("100%.txt")));
        assert_eq!(found("/%ff"), None, "not UTF-8");
        assert_eq!(found("/nothing"), None);
    }
}
